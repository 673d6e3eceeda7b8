import type { RpcRequestOf } from '@inv/runtime';
import type { QuotaDeps } from '../support/deps';
import { setPlan } from '../usecases/set-plan';

export const onSetPlan = (deps: QuotaDeps, msg: RpcRequestOf<'quota.set-plan.v1'>) => setPlan(deps, msg.companyId, msg.data.plan);
