import { eventMessage } from '@inv/runtime';
import type { StoredFile } from '../db/invoices';
import { exportFacts } from '../domain/export-facts';
import { totalsOf } from '../domain/totals';
import type { InvoiceDeps } from './deps';

/** When a finalize job was accepted, picked up by a renderer and ended (for its metrics and log line). */
export interface JobEnded {
  outcome: 'finished' | 'failed';
  createdAt: Date;
  startedAt?: Date;
  endedAt: Date;
}

/**
 * The documents exist: the invoice becomes OPEN and the job finished, with the finalized event in the
 * same transaction. Idempotent by state: a redelivered message finds the job finished and changes nothing.
 */
export async function completeFinalization(
  deps: InvoiceDeps,
  companyId: string,
  done: { jobId: string; invoiceId: number; pdf: StoredFile; xml?: StoredFile },
): Promise<JobEnded | undefined> {
  const { jobId, invoiceId, pdf, xml } = done;
  return deps.commit(async (session, emit) => {
    const job = await deps.jobs.byId(companyId, jobId, session);
    if (!job || job.status === 'finished' || job.status === 'failed') return undefined;
    const now = deps.now();
    const inv = await deps.invoices.completeFinalize(companyId, invoiceId, jobId, { pdf, xml }, now, session);
    if (inv) await deps.jobs.markFinished(companyId, jobId, now, job.startedAt ?? now, session);
    else await deps.jobs.markFailed(companyId, jobId, 'the invoice is no longer a draft', now, session);
    const ended: JobEnded = { outcome: inv ? 'finished' : 'failed', createdAt: job.createdAt, startedAt: job.startedAt, endedAt: now };
    if (!inv || !inv.snapshot) return ended;
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
    return ended;
  });
}
