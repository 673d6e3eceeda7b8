import type { CompanyId } from '@inv/contracts';
import type { InvoiceDeps } from '../../platform/deps';
import { loadInvoice } from './load-invoice';

export async function listAttachments(deps: InvoiceDeps, companyId: CompanyId, invoiceId: number) {
  await loadInvoice(deps, companyId, invoiceId);
  return deps.attachments.ofInvoice(companyId, invoiceId);
}
