import type { CompanyId } from '@inv/contracts';
import { eventMessage } from '@inv/runtime';
import type { JobDoc } from '../db/jobs';
import { startedAtOf } from './complete-finalization';
import type { InvoicesDeps } from '../deps';

/** Rendering failed for good: the job fails with the reason, the draft is editable again, quota is released. */
export async function failFinalization(
  deps: InvoicesDeps,
  companyId: CompanyId,
  failure: { jobId: string; invoiceId: number; startedAt?: string; reason: string },
): Promise<JobDoc | undefined> {
  const { jobId, invoiceId, reason } = failure;
  let written: JobDoc | undefined;
  await deps.commit(async (session, emit) => {
    written = undefined; // a retried transaction starts over
    const job = await deps.jobs.byId(companyId, jobId, session);
    if (!job || job.status === 'finished' || job.status === 'failed') return;
    const now = deps.now();
    const startedAt = job.startedAt || failure.startedAt ? startedAtOf(job, failure.startedAt, now) : undefined;
    await deps.jobs.markFailed(companyId, jobId, reason, now, startedAt, session);
    written = { ...job, status: 'failed', finishedAt: now, startedAt, errorMessage: reason };
    // a credit note gives back what it took from its invoice's creditable gross
    await deps.invoices.releaseCredit(companyId, invoiceId, jobId, session);
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
