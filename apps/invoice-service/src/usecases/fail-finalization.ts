import { eventMessage } from '@inv/runtime';
import type { JobDoc } from '../db/jobs';
import type { InvoiceDeps } from './deps';

/** Rendering failed for good: the job fails with the reason, the draft is editable again, quota is released. */
export async function failFinalization(
  deps: InvoiceDeps,
  companyId: string,
  failure: { jobId: string; invoiceId: number; reason: string },
): Promise<JobDoc | undefined> {
  const { jobId, invoiceId, reason } = failure;
  let written: JobDoc | undefined;
  await deps.commit(async (session, emit) => {
    written = undefined; // a retried transaction starts over
    const job = await deps.jobs.byId(companyId, jobId, session);
    if (!job || job.status === 'finished' || job.status === 'failed') return;
    const now = deps.now();
    await deps.jobs.markFailed(companyId, jobId, reason, now, session);
    written = { ...job, status: 'failed', finishedAt: now, errorMessage: reason };
    await deps.invoices.releaseFinalize(companyId, invoiceId, jobId, session);
    emit(
      eventMessage(
        'invoice.finalize-failed.v1',
        companyId,
        { invoiceId, jobId, reservationId: job.reservationId, reason },
        `finalize-failed-${jobId}`,
      ),
    );
  });
  return written;
}
