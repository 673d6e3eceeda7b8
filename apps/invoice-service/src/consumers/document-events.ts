import type { Envelope } from '@inv/bus';
import { eventMessage } from '@inv/runtime';
import type { StoredFile } from '../db/invoices';
import { exportFacts } from '../domain/export-facts';
import { totalsOf } from '../domain/totals';
import type { InvoiceDeps } from '../usecases/deps';

/** queued -> started; a late or repeated "started" never moves a finished or failed job back. */
export async function onRenderStarted(deps: InvoiceDeps, msg: Envelope<{ jobId: string; invoiceId: number }>) {
  await deps.jobs.model.updateOne({ _id: msg.data.jobId, companyId: msg.companyId, status: 'queued' }, { $set: { status: 'started', startedAt: deps.now() } });
}

/**
 * The documents exist: the invoice becomes OPEN and the job finished, with the finalized event in the
 * same transaction. Idempotent by state: a redelivered message finds the job finished and changes nothing.
 */
export async function onRendered(deps: InvoiceDeps, msg: Envelope<{ jobId: string; invoiceId: number; pdf: StoredFile; xml?: StoredFile }>) {
  const { jobId, invoiceId, pdf, xml } = msg.data;
  const companyId = msg.companyId;
  await deps.conn.transaction(async (session) => {
    const job = await deps.jobs.model.findOne({ _id: jobId, companyId }).session(session).lean();
    if (!job || job.status === 'finished' || job.status === 'failed') return;
    const now = deps.now();
    const inv = await deps.invoices.model
      .findOneAndUpdate(
        { _id: invoiceId, companyId, status: 'DRAFT', finalizingJobId: jobId },
        { $set: { status: 'OPEN', pdf, xml, finalizedAt: now, updatedAt: now }, $unset: { finalizingJobId: 1 } },
        { returnDocument: 'after', session },
      )
      .lean();
    await deps.jobs.model.updateOne(
      { _id: jobId, companyId },
      inv
        ? { $set: { status: 'finished', finishedAt: now, startedAt: job.startedAt ?? now } }
        : { $set: { status: 'failed', finishedAt: now, errorMessage: 'the invoice is no longer a draft' } },
      { session },
    );
    if (!inv || !inv.snapshot) return;
    const totals = totalsOf(inv.positions);
    await deps.outbox.add(
      [
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
      ],
      session,
    );
  });
  deps.relay().kick();
}

/** Rendering failed for good: the job fails with the reason, the draft is editable again, quota is released. */
export async function onRenderFailed(deps: InvoiceDeps, msg: Envelope<{ jobId: string; invoiceId: number; reason: string }>) {
  const { jobId, invoiceId, reason } = msg.data;
  const companyId = msg.companyId;
  await deps.conn.transaction(async (session) => {
    const job = await deps.jobs.model.findOne({ _id: jobId, companyId }).session(session).lean();
    if (!job || job.status === 'finished' || job.status === 'failed') return;
    const now = deps.now();
    await deps.jobs.model.updateOne({ _id: jobId, companyId }, { $set: { status: 'failed', errorMessage: reason, finishedAt: now } }, { session });
    await deps.invoices.model.updateOne(
      { _id: invoiceId, companyId, finalizingJobId: jobId },
      { $unset: { finalizingJobId: 1, snapshot: 1, invoiceDate: 1, dueDate: 1 } },
      { session },
    );
    await deps.outbox.add([eventMessage('invoice.finalize-failed.v1', companyId, { invoiceId, jobId, reservationId: job.reservationId, reason }, `finalize-failed-${jobId}`)], session);
  });
  deps.relay().kick();
}
