import type { CompanyId } from '@inv/contracts';
import { notFound } from '@inv/service-kit';
import type { DownloadLink } from '../../platform';
import type { ReceivablesDeps } from '../deps';
import { loadInvoice } from '../../invoices';

/** GET /invoice/{id}/reminders: the invoice's reminders, by level. */
export async function listReminders(deps: ReceivablesDeps, companyId: CompanyId, invoiceId: number) {
  await loadInvoice(deps, companyId, invoiceId);
  return deps.reminders.ofInvoice(companyId, invoiceId);
}

/** GET /invoice/{id}/reminders/{rid}/pdf: a presigned link to the reminder's PDF. */
export async function reminderLink(
  deps: ReceivablesDeps,
  companyId: CompanyId,
  invoiceId: number,
  reminderId: number,
): Promise<DownloadLink> {
  await loadInvoice(deps, companyId, invoiceId);
  const r = await deps.reminders.get(companyId, invoiceId, reminderId);
  if (!r) throw notFound(`reminder ${reminderId} of invoice ${invoiceId}`);
  const { url, expiresInSeconds } = await deps.bus.callRpc('document.presign.v1', companyId, { key: r.pdf.key, filename: r.pdf.filename });
  return { url, filename: r.pdf.filename, contentType: 'application/pdf', expiresIn: expiresInSeconds };
}

/**
 * GET /invoice/reminder-proposals: what the daily run proposed, for invoices that are still open and have not had the
 * proposed level since.
 */
export async function listReminderProposals(deps: ReceivablesDeps, companyId: CompanyId) {
  const proposals = await deps.reminders.proposals(companyId);
  const live = await Promise.all(
    proposals.map(async (p) => {
      const inv = await deps.invoices.get(companyId, p.invoiceId);
      return inv && ['OPEN', 'SENT'].includes(inv.status) ? p : undefined;
    }),
  );
  return live.filter((p) => p !== undefined);
}
