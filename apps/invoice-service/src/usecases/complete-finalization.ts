import { eventMessage } from '@inv/runtime';
import type { StoredFile } from '../db/invoices';
import type { JobDoc } from '../db/jobs';
import { exportFacts } from '../domain/export-facts';
import { totalsOf } from '../domain/totals';
import type { InvoiceDeps } from './deps';

/**
 * The documents exist: the invoice becomes OPEN and the job finished, with the finalized event in the
 * same transaction. Idempotent by state: a redelivered message finds the job finished and changes nothing.
 * Answers the job as it was written (undefined when nothing changed).
 */
export async function completeFinalization(
  deps: InvoiceDeps,
  companyId: string,
  done: { jobId: string; invoiceId: number; pdf: StoredFile; xml?: StoredFile },
): Promise<JobDoc | undefined> {
  const { jobId, invoiceId, pdf, xml } = done;
  let written: JobDoc | undefined;
  await deps.commit(async (session, emit) => {
    written = undefined; // a retried transaction starts over
    const job = await deps.jobs.byId(companyId, jobId, session);
    if (!job || job.status === 'finished' || job.status === 'failed') return;
    const now = deps.now();
    const inv = await deps.invoices.completeFinalize(companyId, invoiceId, jobId, { pdf, xml }, now, session);
    if (inv) {
      await deps.jobs.markFinished(companyId, jobId, now, job.startedAt ?? now, session);
      written = { ...job, status: 'finished', finishedAt: now, startedAt: job.startedAt ?? now };
    } else {
      const errorMessage = 'the invoice is no longer a draft';
      await deps.jobs.markFailed(companyId, jobId, errorMessage, now, session);
      written = { ...job, status: 'failed', finishedAt: now, errorMessage };
    }
    if (!inv || !inv.snapshot) return;
    const totals = totalsOf(inv.positions);
    emit(
      eventMessage(
        'invoice.finalized.v1',
        companyId,
        {
          invoiceId,
          number: inv.number,
          typeCode: inv.typeCode,
          customerId: inv.customerId,
          invoiceDate: inv.invoiceDate ?? now.toISOString().slice(0, 10),
          dueDate: inv.dueDate,
          currency: 'EUR',
          totalNet: totals.taxExclusiveTotal,
          totalVat: totals.vatTotal,
          totalGross: totals.taxInclusiveTotal,
          reservationId: job.reservationId,
          ...exportFacts(inv.snapshot, inv.positions, totals.vatBreakdown, pdf),
        },
        `finalized-${invoiceId}`,
      ),
    );
  });
  return written;
}
