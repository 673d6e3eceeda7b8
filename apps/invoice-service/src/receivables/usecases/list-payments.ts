import type { CompanyId, PaymentListQuery } from '@inv/contracts';
import type { ReceivablesDeps } from '../deps';
import { loadInvoice } from '../../invoices';

/** The payments of an invoice (404 for an invoice the company does not have), oldest first, reversed ones included unless asked. */
export async function listPayments(deps: ReceivablesDeps, companyId: CompanyId, invoiceId: number, q: PaymentListQuery) {
  await loadInvoice(deps, companyId, invoiceId);
  return deps.payments.listOf(companyId, invoiceId, { includeReversed: q.include_reversed, page: q.page, limit: q.limit });
}
