import { isTestCompany, liveCompanyOf, type CompanyId } from '@inv/contracts';
import { eventMessage } from '@inv/runtime';
import { jobMetrics } from '@inv/telemetry';
import { monthKey, resetDate } from '../domain/quota';
import type { QuotaDeps } from '../support/deps';
import { planOf } from './plan-of';
import { limitOf } from './usage';

/**
 * Counts one finalization (idempotent by reservation id) unless the month's limit is reached. A test twin's
 * finalization (docs/test-mode.md) is granted without counting: nothing is stored, nothing announced, and the
 * answer tells the live company's month as it is.
 */
export async function reserveFinalization(deps: QuotaDeps, companyId: CompanyId, reservationId: string, at: Date) {
  if (isTestCompany(companyId)) {
    jobMetrics.quotaReservations.inc({ outcome: 'test_mode' });
    const live = liveCompanyOf(companyId);
    const plan = await planOf(deps, live);
    return {
      granted: true,
      used: await deps.store.used(live, monthKey(at)),
      limit: limitOf(deps, live, plan),
      reset_date: resetDate(at),
      plan,
    };
  }
  const plan = await planOf(deps, companyId);
  const limit = limitOf(deps, companyId, plan);
  const month = monthKey(at);
  const { granted, used } = await deps.store.reserve(companyId, month, reservationId, limit);
  jobMetrics.quotaReservations.inc({ outcome: granted ? 'reserved' : 'exhausted' });
  // the month is used up (by this reservation, or found so): announced once per month and limit, through the outbox
  if (used >= limit)
    await deps.commit(async (session, emit) => {
      if (await deps.store.markLimitAnnounced(companyId, month, limit, session))
        emit(
          eventMessage(
            'quota.limit-reached.v1',
            companyId,
            { month, limit, used, plan },
            `quota-limit-reached:${companyId}:${month}:${limit}`,
          ),
        );
    });
  return { granted, used, limit, reset_date: resetDate(at), plan };
}
