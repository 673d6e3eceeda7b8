import type { CompanyId } from '@inv/contracts';
import { eventMessage } from '@inv/runtime';
import type { StoredFile } from '../db/invoices';
import type { JobDoc } from '../db/jobs';
import { exportFacts } from '../domain/export-facts';
import { totalsOf } from '../domain/totals';
import type { InvoicesDeps } from '../deps';

/**
 * When the job started: as recorded (render-started), else as the renderer reports it (it announces only a
 * slow render), kept between the job's creation and its end (the renderer's clock is another machine's).
 */
export function startedAtOf(job: Pick<JobDoc, 'startedAt' | 'createdAt'>, reported: string | undefined, now: Date): Date {
  if (job.startedAt) return job.startedAt;
  const at = reported ? new Date(reported) : now;
  if (Number.isNaN(at.getTime())) return now;
  return new Date(Math.min(Math.max(at.getTime(), new Date(job.createdAt).getTime()), now.getTime()));
}

/**
 * The documents exist: the invoice becomes OPEN and the job finished, with the finalized event in the
 * same transaction. Idempotent by state: a redelivered message finds the job finished and changes nothing.
 * A credit note with a preceding invoice lowers that invoice's open amount in the same transaction, and settles it
 * (PAID) when nothing is left open (settle-credit-note.ts).
 * Answers the job as it was written (undefined when nothing changed).
 */
export async function completeFinalization(
  deps: InvoicesDeps,
  companyId: CompanyId,
  done: { jobId: string; invoiceId: number; startedAt?: string; pdf: StoredFile; xml?: StoredFile },
): Promise<JobDoc | undefined> {
  const { jobId, invoiceId, pdf, xml } = done;
  let written: JobDoc | undefined;
  await deps.commit(async (session, emit) => {
    written = undefined; // a retried transaction starts over
    const job = await deps.jobs.byId(companyId, jobId, session);
    if (!job || job.status === 'finished' || job.status === 'failed') return;
    const now = deps.now();
    const inv = await deps.invoices.completeFinalize(companyId, invoiceId, jobId, { pdf, xml }, now, session);
    const startedAt = startedAtOf(job, done.startedAt, now);
    if (inv) {
      await deps.jobs.markFinished(companyId, jobId, now, startedAt, session);
      written = { ...job, status: 'finished', finishedAt: now, startedAt };
    } else {
      const errorMessage = 'the invoice is no longer a draft';
      await deps.jobs.markFailed(companyId, jobId, errorMessage, now, startedAt, session);
      written = { ...job, status: 'failed', finishedAt: now, startedAt, errorMessage };
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
        // with the company: invoice ids repeat across companies, and outboxes and inboxes dedupe by this id
        `finalized-${companyId}-${invoiceId}`,
      ),
    );
    // once: only the transaction whose DRAFT -> OPEN move matched gets here
    await deps.settlement.creditNoteFinalized(session, emit, companyId, inv, now);
  });
  return written;
}
