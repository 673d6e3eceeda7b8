import type { CompanyId, InvoiceListQuery } from '@inv/contracts';
import { invoiceListFilter } from '../domain/list-filter';
import type { InvoicesDeps } from '../deps';

/** A page of the company's invoices with the list filters and sort order of GET /invoice/. */
export async function listInvoices(deps: InvoicesDeps, companyId: CompanyId, q: InvoiceListQuery) {
  const { filter, sort } = invoiceListFilter(q, deps.now().toISOString().slice(0, 10));
  return deps.invoices.page(companyId, filter, sort, q);
}
