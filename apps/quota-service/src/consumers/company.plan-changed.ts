import type { Envelope } from '@inv/bus';
import type { Plan } from '../domain/quota';
import type { QuotaDeps } from '../usecases/deps';

/** company.created.v1 and company.plan-changed.v1: the plan the quota counts against (idempotent by state). */
export async function onCompanyPlan(deps: QuotaDeps, msg: Envelope<{ plan: Plan }>) {
  await deps.store.setPlan(msg.companyId, msg.data.plan);
}
