import type { CompanyId } from '@inv/contracts';
import { eventMessage } from '@inv/runtime';
import { notFound } from '@inv/service-kit';
import type { Plan } from '../domain/quota';
import type { QuotaDeps } from '../support/deps';

/**
 * Changes the company's plan (operator command) and announces it as company.plan-changed.v1 in the same
 * transaction (outbox): account-service deactivates the company's API keys on a downgrade from Pro. Setting
 * the plan it already has changes and announces nothing. Only companies account-service knows have a plan.
 */
export async function setPlan(deps: QuotaDeps, companyId: CompanyId, plan: Plan) {
  const known = await deps.bus.callRpc('account.company-plan.v1', companyId, {});
  if (!known.found) throw notFound(`company ${companyId}`);
  return deps.commit(async (session, emit) => {
    const before = await deps.store.planDoc(companyId, session);
    const previousPlan: Plan = before?.plan ?? known.plan ?? 'free';
    const current = before?.version ?? 0;
    if (previousPlan === plan) {
      if (!before) await deps.store.writePlan(companyId, plan, current, session);
      return { plan, previousPlan, changed: false, version: current };
    }
    const version = current + 1;
    await deps.store.writePlan(companyId, plan, version, session);
    emit(eventMessage('company.plan-changed.v1', companyId, { plan, previousPlan, version }));
    return { plan, previousPlan, changed: true, version };
  });
}
