import type { CompanyId } from '@inv/contracts';
import { jobMetrics } from '@inv/telemetry';
import { monthKey, resetDate } from '../domain/quota';
import type { QuotaDeps } from '../support/deps';
import { planOf } from './plan-of';
import { limitOf } from './usage';

/** Counts one finalization (idempotent by reservation id) unless the month's limit is reached. */
export async function reserveFinalization(deps: QuotaDeps, companyId: CompanyId, reservationId: string, at: Date) {
  const plan = await planOf(deps, companyId);
  const limit = limitOf(deps, companyId, plan);
  const { granted, used } = await deps.store.reserve(companyId, monthKey(at), reservationId, limit);
  jobMetrics.quotaReservations.inc({ outcome: granted ? 'reserved' : 'exhausted' });
  return { granted, used, limit, reset_date: resetDate(at), plan };
}
