import type { CompanyId } from '@inv/contracts';
import { conflict, notFound } from '@inv/service-kit';
import type { InvoiceDoc } from '../db/invoices';
import { isEditable } from '../domain/status-machine';
import type { InvoicesDeps } from '../deps';

export async function loadInvoice(deps: Pick<InvoicesDeps, 'invoices'>, companyId: CompanyId, id: number): Promise<InvoiceDoc> {
  const inv = await deps.invoices.get(companyId, id);
  if (!inv) throw notFound(`invoice ${id}`);
  return inv;
}

export async function loadDraft(deps: Pick<InvoicesDeps, 'invoices'>, companyId: CompanyId, id: number): Promise<InvoiceDoc> {
  const inv = await loadInvoice(deps, companyId, id);
  if (!isEditable(inv.status) || inv.finalizingJobId) {
    throw conflict(
      `invoice ${id} is ${inv.finalizingJobId ? 'being finalized' : inv.status}; only drafts can be changed`,
      'INVOICE_NOT_DRAFT',
    );
  }
  return inv;
}
