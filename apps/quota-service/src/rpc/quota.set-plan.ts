import type { Envelope } from '@inv/bus';
import type { Plan } from '../domain/quota';
import type { QuotaDeps } from '../usecases/deps';
import { setPlan } from '../usecases/set-plan';

export const onSetPlan = (deps: QuotaDeps, msg: Envelope<{ plan: Plan }>) => setPlan(deps, msg.companyId, msg.data.plan);
