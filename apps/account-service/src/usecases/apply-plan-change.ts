import type { CompanyId } from '@inv/contracts';
import type { Changes } from '@inv/outbox';
import { eventMessage, type EventOf } from '@inv/runtime';
import type { ApiKeysRepo } from '../db/api-keys';
import type { CompaniesRepo } from '../db/companies';

export interface PlanChangeDeps {
  commitOnce: Changes['commitOnce'];
  companies: CompaniesRepo;
  apiKeys: ApiKeysRepo;
  /** Tells every gateway replica to drop a key from its verified-key cache (Redis pub/sub). */
  announceRevoked: (keyId: string, companyId: CompanyId) => Promise<void>;
}

/**
 * company.plan-changed.v1 (quota-service owns plans): records the plan (an announcement older than the one
 * applied is ignored) and, on a downgrade from Pro, deactivates every API key of the company in the same
 * transaction and then evicts them from every gateway's cache, so requests with them answer 401 at once.
 * An upgrade reactivates nothing: new keys must be created. Applied once per message (commitOnce).
 */
export async function applyPlanChange(deps: PlanChangeDeps, msg: EventOf<'company.plan-changed.v1'>) {
  let deactivated: string[] = [];
  await deps.commitOnce(msg, async (session, emit) => {
    deactivated = [];
    const before = await deps.companies.applyPlan(msg.companyId, msg.data.plan, msg.data.version, session);
    if (before?.plan === 'pro' && msg.data.plan !== 'pro')
      deactivated = await deps.apiKeys.deactivateAll(msg.companyId, new Date(), session);
    for (const keyId of deactivated) emit(eventMessage('api-key.revoked.v1', msg.companyId, { keyId, reason: 'plan_downgrade' }));
  });
  for (const keyId of deactivated) await deps.announceRevoked(keyId, msg.companyId);
  return deactivated;
}
