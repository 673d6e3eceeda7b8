import type { EventOf } from '@inv/runtime';
import { applyPlanChange, type PlanChangeDeps } from '../usecases/apply-plan-change';

export const onPlanChanged = (deps: PlanChangeDeps, msg: EventOf<'company.plan-changed.v1'>) =>
  applyPlanChange(deps, msg).then(() => undefined);
