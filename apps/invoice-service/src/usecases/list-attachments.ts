import type { InvoiceDeps } from './deps';
import { loadInvoice } from './load-invoice';

export async function listAttachments(deps: InvoiceDeps, companyId: string, invoiceId: number) {
  await loadInvoice(deps, companyId, invoiceId);
  return deps.attachments.ofInvoice(companyId, invoiceId);
}
