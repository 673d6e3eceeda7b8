import { randomUUID } from 'node:crypto';
import { FINALIZE_TASK, type CompanyId } from '@inv/contracts';
import { commandMessage, eventMessage } from '@inv/runtime';
import { AppError, conflict } from '@inv/service-kit';
import type { ClientSession } from 'mongoose';
import type { InvoiceDoc } from '../db/invoices';
import { creditLimitCents } from '../domain/credit-note';
import { grossCentsOf } from '../domain/totals';
import { creditExceeds } from './create-credit-note';
import type { InvoicesDeps } from '../deps';
import { loadInvoice } from './load-invoice';
import { assertFinalizable, validateInvoice } from './validate-invoice';

/** The calendar date of finalization (UTC), which becomes invoice_date. */
const today = (now: Date) => now.toISOString().slice(0, 10);

/**
 * POST /invoice/{id}/job: validation, VAT confirmation, quota reservation, then the job is stored and
 * the render command written to the outbox in one transaction. Nothing accepted is lost: if the process
 * dies after the commit, the relay publishes the command after the restart.
 */
export async function startFinalizeJob(deps: InvoicesDeps, companyId: CompanyId, invoiceId: number, vatOverrideConfirmed: boolean) {
  const inv = await loadInvoice(deps, companyId, invoiceId);
  if (inv.finalizingJobId)
    throw conflict(`invoice ${invoiceId} is already being finalized by job ${inv.finalizingJobId}`, 'JOB_IN_PROGRESS');
  if (inv.status !== 'DRAFT') throw conflict(`invoice ${invoiceId} is ${inv.status}; only drafts can be finalized`, 'INVOICE_NOT_DRAFT');

  const now = deps.now();
  const issueDate = today(now);
  const validation = await validateInvoice(deps, inv, issueDate);
  // the same findings GET /invoice/{id}/validate answers; the VAT one is cleared by vat_override_confirmed
  assertFinalizable(validation, vatOverrideConfirmed);

  const jobId = randomUUID();
  const month = now.toISOString().slice(0, 7);
  const reservationId = `${jobId}@${month}`;
  const quota = await deps.bus.callRpc('quota.reserve.v1', companyId, { reservationId, at: now.toISOString() });
  if (!quota.granted) {
    const usage = { used: quota.used, limit: quota.limit, reset_date: quota.reset_date };
    throw new AppError('limit_reached', `monthly invoice limit of ${quota.limit} reached; it resets on ${quota.reset_date}`, {
      code: 'INVOICE_LIMIT_REACHED',
      extra: { usage, ...usage },
    });
  }

  // Attachments travel with the render command by reference, to be embedded where the format allows.
  const attachments = validation.attachments.map((a) => ({
    id: a.id,
    key: a.key,
    filename: a.filename,
    contentType: a.contentType,
    size: a.size,
    description: a.description,
  }));

  const grossCents = grossCentsOf(validation.positions);
  let claimed = false;
  try {
    await deps.commit(async (session, emit) => {
      claimed = await deps.invoices.claimForFinalize(
        companyId,
        invoiceId,
        inv.updatedAt,
        jobId,
        {
          snapshot: validation.snapshot,
          invoiceDate: issueDate,
          dueDate: validation.snapshot.dueDate,
          customerName: validation.snapshot.buyer.name,
          // as issued: a Kleinunternehmer's positions become VAT-exempt (the totals must match the e-invoice)
          positions: validation.positions,
          grossCents,
          // a credit note takes its gross from its invoice's creditable gross in this transaction (reserveCredit)
          ...(inv.typeCode === '381' && inv.precedingInvoiceId !== undefined ? { creditReservedCents: grossCents } : {}),
        },
        session,
      );
      if (!claimed) return;
      if (inv.typeCode === '381' && inv.precedingInvoiceId !== undefined) await reserveCredit(deps, companyId, inv, grossCents, session);
      await deps.jobs.insert(
        { _id: jobId, companyId, invoiceId, task: FINALIZE_TASK, status: 'queued', reservationId, createdAt: now },
        session,
      );
      emit(
        commandMessage(
          'document.render-invoice.v1',
          companyId,
          {
            jobId,
            invoiceId,
            format: inv.format,
            templateId:
              inv.templateId ?? validation.buyer.defaultTemplateId ?? validation.seller.defaultTemplateId ?? deps.defaultTemplateId,
            snapshot: validation.snapshot,
            attachments: attachments.length ? attachments : undefined,
            logo: validation.seller.logo,
          },
          `render-${jobId}`,
        ),
      );
    });
  } catch (err) {
    await releaseReservation(deps, companyId, invoiceId, jobId, reservationId, 'finalization could not be stored');
    throw err;
  }
  if (!claimed) {
    await releaseReservation(deps, companyId, invoiceId, jobId, reservationId, 'invoice changed during finalization');
    throw conflict(`invoice ${invoiceId} changed while it was being finalized; retry`, 'CONCURRENT_MODIFICATION');
  }
  return jobId;
}

/**
 * A credit note takes its gross from what its invoice can still be credited, atomically (a conditional $inc in the
 * finalization's transaction): credit notes finalized at the same time never take more than the invoice's gross
 * together. Beyond it the transaction is undone (the claim too) and the answer is 409 CREDIT_EXCEEDS_INVOICE.
 */
async function reserveCredit(deps: InvoicesDeps, companyId: CompanyId, note: InvoiceDoc, cents: number, session: ClientSession) {
  const invoiceId = note.precedingInvoiceId as number;
  const invoice = await deps.invoices.get(companyId, invoiceId, session);
  if (!invoice) throw conflict(`the credited invoice ${invoiceId} does not exist`, 'INVALID_CREDIT_NOTE');
  if (!(await deps.invoices.reserveCredit(companyId, invoiceId, cents, creditLimitCents(invoice), session)))
    throw creditExceeds(invoice, cents);
}

async function releaseReservation(
  deps: InvoicesDeps,
  companyId: CompanyId,
  invoiceId: number,
  jobId: string,
  reservationId: string,
  reason: string,
) {
  await deps.publish(
    eventMessage('invoice.finalize-failed.v1', companyId, { invoiceId, jobId, reservationId, reason }, `finalize-failed-${jobId}`),
  );
}
