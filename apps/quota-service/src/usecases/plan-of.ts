import type { CompanyId } from '@inv/contracts';
import type { Plan } from '../domain/quota';
import type { QuotaDeps } from '../support/deps';

/**
 * The company's plan. Normally known from company.created / plan-changed events; a company whose event
 * has not arrived (on a first start it can be published before this service's queue exists, and a topic
 * exchange drops it) is asked of account-service once and recorded, instead of silently counting as Free.
 */
export async function planOf(deps: QuotaDeps, companyId: CompanyId): Promise<Plan> {
  const known = await deps.store.knownPlanOf(companyId);
  if (known) return known;
  try {
    const answer = await deps.bus.callRpc('account.company-plan.v1', companyId, {});
    if (answer.found && answer.plan) {
      await deps.store.setInitialPlan(companyId, answer.plan);
      return answer.plan;
    }
  } catch (err) {
    deps.logger.warn({ err, companyId }, 'plan of the company unknown and account-service not answering; counting it as Free');
  }
  return 'free';
}
