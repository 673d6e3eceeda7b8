import type { CompanyId } from '@inv/contracts';
import { eventMessage } from '@inv/runtime';
import type { InvoiceDoc } from '../domain/invoice';
import { totalsOf } from '../domain/totals';

/**
 * The one builder of `invoice.status-changed.v1`: an invoice (or credit note) became SENT or PAID. Used by every
 * change that moves a status (PUT /invoice/{id}/status, payments and their reversal, a credit note's settlement, an
 * e-mail's outcome). `id` is the envelope id: it names the company (invoice ids repeat across companies, and
 * outboxes and inboxes dedupe by it) and the cause, so a redelivered cause announces nothing twice while a document
 * paid, reopened and paid again announces each move.
 */
export function statusChanged(
  companyId: CompanyId,
  inv: Pick<InvoiceDoc, 'id' | 'customerId' | 'number' | 'positions'>,
  status: 'SENT' | 'PAID',
  id: string,
  extra: { paidDate?: string; settledByCredit?: true } = {},
) {
  return eventMessage(
    'invoice.status-changed.v1',
    companyId,
    {
      invoiceId: inv.id,
      customerId: inv.customerId,
      number: inv.number,
      status,
      ...(extra.paidDate !== undefined ? { paidDate: extra.paidDate } : {}),
      totalGross: totalsOf(inv.positions).taxInclusiveTotal,
      ...(extra.settledByCredit ? { settledByCredit: true } : {}),
    },
    id,
  );
}
