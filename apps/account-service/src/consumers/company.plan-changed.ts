import type { Envelope } from '@inv/bus';
import { applyPlanChange, type PlanChangeDeps } from '../usecases/apply-plan-change';

export const onPlanChanged = (deps: PlanChangeDeps, msg: Envelope<{ plan: 'free' | 'pro'; version?: number }>) =>
  applyPlanChange(deps, msg).then(() => undefined);
