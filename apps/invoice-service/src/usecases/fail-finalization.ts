import { eventMessage } from '@inv/runtime';
import type { InvoiceDeps } from './deps';

/** Rendering failed for good: the job fails with the reason, the draft is editable again, quota is released. */
export async function failFinalization(deps: InvoiceDeps, companyId: string, failure: { jobId: string; invoiceId: number; reason: string }) {
  const { jobId, invoiceId, reason } = failure;
  await deps.commit(async (session, emit) => {
    const job = await deps.jobs.byId(companyId, jobId, session);
    if (!job || job.status === 'finished' || job.status === 'failed') return;
    await deps.jobs.markFailed(companyId, jobId, reason, deps.now(), session);
    await deps.invoices.releaseFinalize(companyId, invoiceId, jobId, session);
    emit(eventMessage('invoice.finalize-failed.v1', companyId, { invoiceId, jobId, reservationId: job.reservationId, reason }, `finalize-failed-${jobId}`));
  });
}
