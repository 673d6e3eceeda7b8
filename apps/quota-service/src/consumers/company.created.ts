import type { EventOf } from '@inv/runtime';
import type { QuotaDeps } from '../support/deps';

/**
 * company.created.v1: the plan the company starts with. Idempotent, and never overrides a plan set here
 * since (quota-service owns plans and announces their changes itself: usecases/set-plan.ts).
 */
export async function onCompanyCreated(deps: QuotaDeps, msg: EventOf<'company.created.v1'>) {
  await deps.store.setInitialPlan(msg.companyId, msg.data.plan);
}
