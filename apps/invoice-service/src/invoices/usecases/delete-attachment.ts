import type { CompanyId } from '@inv/contracts';
import { eventMessage } from '@inv/runtime';
import { notFound } from '@inv/service-kit';
import type { InvoicesDeps } from '../deps';
import { loadDraft } from './load-invoice';

/** DELETE: only while the invoice is a draft (a finalized invoice's attachments are frozen with it). */
export async function deleteAttachment(deps: InvoicesDeps, companyId: CompanyId, invoiceId: number, id: number) {
  await loadDraft(deps, companyId, invoiceId);
  const a = await deps.attachments.get(companyId, invoiceId, id);
  if (!a) throw notFound(`attachment ${id} of invoice ${invoiceId}`);
  await deps.attachments.ensureUsage(companyId, invoiceId);
  // the removal, the count and bytes it gives back and its audit event together (the outbox)
  await deps.commit(async (session, emit) => {
    const removed = await deps.attachments.remove(companyId, invoiceId, id, session);
    if (removed.deletedCount !== 1) throw notFound(`attachment ${id} of invoice ${invoiceId}`); // a concurrent delete took it
    await deps.attachments.release(companyId, invoiceId, a.size, session);
    emit(eventMessage('invoice.changed.v1', companyId, { invoiceId, action: 'attachment_deleted', attachmentId: id, fields: [] }));
  });
  await deps.objects.remove(a.key);
}
