import type { CompanyId, StatusUpdate } from '@inv/contracts';
import { eventMessage } from '@inv/runtime';
import { conflict } from '@inv/service-kit';
import { canMove } from '../domain/status-machine';
import { totalsOf } from '../domain/totals';
import type { InvoiceDoc } from '../db/invoices';
import type { InvoiceDeps } from '../support/deps';
import { loadInvoice } from './load-invoice';

export async function setStatus(deps: InvoiceDeps, companyId: CompanyId, id: number, input: StatusUpdate) {
  const inv = await loadInvoice(deps, companyId, id);
  if (inv.status === input.status) return inv.status; // repeating the same move is harmless
  if (!canMove(inv.status, input.status))
    throw conflict(`invoice ${id} is ${inv.status} and cannot become ${input.status}`, 'INVALID_STATUS_TRANSITION');
  const set: Partial<InvoiceDoc> =
    input.status === 'PAID'
      ? {
          status: 'PAID',
          paidDate: input.paid_date,
          paymentMethod: input.payment_method,
          paymentReference: input.payment_reference,
          updatedAt: deps.now(),
        }
      : { status: 'SENT', updatedAt: deps.now() };
  await deps.commit(async (session, emit) => {
    if (!(await deps.invoices.moveStatus(companyId, id, inv.status, set, session)))
      throw conflict(`invoice ${id} changed meanwhile; retry`, 'CONCURRENT_MODIFICATION');
    emit(
      eventMessage(
        'invoice.status-changed.v1',
        companyId,
        {
          invoiceId: id,
          customerId: inv.customerId,
          number: inv.number,
          status: input.status,
          paidDate: input.status === 'PAID' ? input.paid_date : undefined,
          totalGross: totalsOf(inv.positions).taxInclusiveTotal,
        },
        // with the company: invoice ids repeat across companies, and outboxes and inboxes dedupe by this id
        `status-${companyId}-${id}-${input.status}`,
      ),
    );
  });
  return input.status;
}
