import type { CompanyId, InvoiceListQuery } from '@inv/contracts';
import { invoiceListFilter, listCursorAfter } from '../domain/list-filter';
import type { InvoicesDeps } from '../deps';

/**
 * A page of the company's invoices with the list filters and sort order of GET /invoice/: the page `q.page`, or the
 * one after `q.cursor`; `nextCursor` continues after it (null on the last page).
 */
export async function listInvoices(deps: InvoicesDeps, companyId: CompanyId, q: InvoiceListQuery) {
  const query = invoiceListFilter(q, deps.now().toISOString().slice(0, 10));
  const skip = q.cursor ? 0 : (q.page - 1) * q.limit;
  // one more than the page: whether a next page exists
  const { docs, total } = await deps.invoices.page(companyId, query, { skip, limit: q.limit + 1 });
  const more = docs.length > q.limit;
  const shown = more ? docs.slice(0, q.limit) : docs;
  return { docs: shown, total, nextCursor: more ? listCursorAfter(q.sort, shown[shown.length - 1]!) : null };
}
