import { randomUUID } from 'node:crypto';
import { FINALIZE_TASK } from '@inv/contracts';
import { commandMessage, eventMessage } from '@inv/runtime';
import { AppError, conflict } from '@inv/service-kit';
import { grossCentsOf } from '../domain/totals';
import type { InvoiceDeps } from './deps';
import { loadInvoice } from './load-invoice';
import { assertValid, validateInvoice } from './validate-invoice';

/** The calendar date of finalization (UTC), which becomes invoice_date. */
const today = (now: Date) => now.toISOString().slice(0, 10);

/**
 * POST /invoice/{id}/job: validation, VAT confirmation, quota reservation, then the job is stored and
 * the render command written to the outbox in one transaction. Nothing accepted is lost: if the process
 * dies after the commit, the relay publishes the command after the restart.
 */
export async function startFinalizeJob(deps: InvoiceDeps, companyId: string, invoiceId: number, vatOverrideConfirmed: boolean) {
  const inv = await loadInvoice(deps, companyId, invoiceId);
  if (inv.finalizingJobId)
    throw conflict(`invoice ${invoiceId} is already being finalized by job ${inv.finalizingJobId}`, 'JOB_IN_PROGRESS');
  if (inv.status !== 'DRAFT') throw conflict(`invoice ${invoiceId} is ${inv.status}; only drafts can be finalized`, 'INVOICE_NOT_DRAFT');

  const now = deps.now();
  const issueDate = today(now);
  const validation = await validateInvoice(deps, inv, issueDate);
  assertValid(validation);
  const vatStatus = validation.vatStatus;
  if (validation.buyer.buyer?.vatId && vatStatus !== 'valid' && !vatOverrideConfirmed) {
    throw new AppError(
      'unprocessable',
      `the customer's VAT ID could not be confirmed (status ${vatStatus}); resend with vat_override_confirmed: true to finalize anyway`,
      {
        code: 'VAT_OVERRIDE_REQUIRED',
        extra: { vat_check: { status: vatStatus } },
      },
    );
  }

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
    id: a._id,
    key: a.key,
    filename: a.filename,
    contentType: a.contentType,
    size: a.size,
    description: a.description,
  }));

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
          grossCents: grossCentsOf(validation.positions),
        },
        session,
      );
      if (!claimed) return;
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

async function releaseReservation(
  deps: InvoiceDeps,
  companyId: string,
  invoiceId: number,
  jobId: string,
  reservationId: string,
  reason: string,
) {
  await deps.publish(
    eventMessage('invoice.finalize-failed.v1', companyId, { invoiceId, jobId, reservationId, reason }, `finalize-failed-${jobId}`),
  );
}
