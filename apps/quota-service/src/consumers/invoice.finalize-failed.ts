import { isTestCompany } from '@inv/contracts';
import type { EventOf } from '@inv/runtime';
import { jobMetrics } from '@inv/telemetry';
import { monthKey } from '../domain/quota';
import type { QuotaDeps } from '../support/deps';

/** A failed finalization gives its reservation back (idempotent: a reservation is released once). */
export async function onFinalizeFailed(deps: QuotaDeps, msg: EventOf<'invoice.finalize-failed.v1'>) {
  if (isTestCompany(msg.companyId)) return; // a test twin's finalizations reserve nothing (reserve-finalization.ts)
  // The reservation id carries its month, so a failure reported after midnight on the 1st releases the right month.
  const month = msg.data.reservationId.split('@')[1] ?? monthKey(new Date(msg.occurredAt));
  await deps.store.release(msg.companyId, month, msg.data.reservationId);
  jobMetrics.quotaReservations.inc({ outcome: 'released' });
}
