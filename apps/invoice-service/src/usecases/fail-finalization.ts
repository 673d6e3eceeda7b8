import { eventMessage } from '@inv/runtime';
import type { JobEnded } from './complete-finalization';
import type { InvoiceDeps } from './deps';

/** Rendering failed for good: the job fails with the reason, the draft is editable again, quota is released. */
export async function failFinalization(deps: InvoiceDeps, companyId: string, failure: { jobId: string; invoiceId: number; reason: string }): Promise<JobEnded | undefined> {
  const { jobId, invoiceId, reason } = failure;
  return deps.commit(async (session, emit) => {
    const job = await deps.jobs.byId(companyId, jobId, session);
    if (!job || job.status === 'finished' || job.status === 'failed') return undefined;
    const now = deps.now();
    await deps.jobs.markFailed(companyId, jobId, reason, now, session);
    await deps.invoices.releaseFinalize(companyId, invoiceId, jobId, session);
    emit(eventMessage('invoice.finalize-failed.v1', companyId, { invoiceId, jobId, reservationId: job.reservationId, reason }, `finalize-failed-${jobId}`));
    return { outcome: 'failed' as const, createdAt: job.createdAt, startedAt: job.startedAt, endedAt: now };
  });
}
