import type { CompanyId } from '@inv/contracts';
import type { InvoicesDeps } from '../deps';
import { loadInvoice } from './load-invoice';

export async function listAttachments(deps: InvoicesDeps, companyId: CompanyId, invoiceId: number) {
  await loadInvoice(deps, companyId, invoiceId);
  return deps.attachments.ofInvoice(companyId, invoiceId);
}
