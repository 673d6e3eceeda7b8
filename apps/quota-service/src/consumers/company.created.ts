import type { Envelope } from '@inv/bus';
import type { Plan } from '../domain/quota';
import type { QuotaDeps } from '../usecases/deps';

/**
 * company.created.v1: the plan the company starts with. Idempotent, and never overrides a plan set here
 * since (quota-service owns plans and announces their changes itself: usecases/set-plan.ts).
 */
export async function onCompanyCreated(deps: QuotaDeps, msg: Envelope<{ plan: Plan }>) {
  await deps.store.setInitialPlan(msg.companyId, msg.data.plan);
}
