import type { CompanyId, StatusUpdate } from '@inv/contracts';
import { conflict } from '@inv/service-kit';
import { canMove } from '../domain/status-machine';
import { paymentCounter } from '../../platform';
import type { InvoiceDoc } from '../db/invoices';
import type { InvoicesDeps } from '../deps';
import { loadInvoice } from './load-invoice';
import { statusChanged } from './status-changed';

export async function setStatus(deps: InvoicesDeps, companyId: CompanyId, id: number, input: StatusUpdate) {
  const inv = await loadInvoice(deps, companyId, id);
  if (inv.status === input.status) return inv.status; // repeating the same move is harmless
  if (!canMove(inv.status, input.status))
    throw conflict(`invoice ${id} is ${inv.status} and cannot become ${input.status}`, 'INVALID_STATUS_TRANSITION');
  if (input.status === 'PAID') {
    await payOpenAmount(deps, companyId, inv, input);
    return input.status;
  }
  const set: Partial<InvoiceDoc> = { status: 'SENT', updatedAt: deps.now() };
  await deps.commit(async (session, emit) => {
    if (!(await deps.invoices.moveStatus(companyId, id, inv.status, set, session)))
      throw conflict(`invoice ${id} changed meanwhile; retry`, 'CONCURRENT_MODIFICATION');
    // with the company: invoice ids repeat across companies, and outboxes and inboxes dedupe by this id
    emit(statusChanged(companyId, inv, input.status, `status-${companyId}-${id}-${input.status}`));
  });
  return input.status;
}

/**
 * The specification's shortcut PUT /invoice/{id}/status PAID: one payment of the open amount (source `status`, no
 * Skonto), read and paid in one transaction; the payment makes the invoice PAID (record-payment.ts). A document with
 * nothing open (a gross total of 0) just moves to PAID, as before payments existed.
 */
async function payOpenAmount(deps: InvoicesDeps, companyId: CompanyId, seen: InvoiceDoc, input: Extract<StatusUpdate, { status: 'PAID' }>) {
  const paymentId = await deps.counters.next(paymentCounter(companyId));
  await deps.commit(async (session, emit) => {
    const inv = (await deps.invoices.get(companyId, seen.id, session)) ?? seen;
    if (await deps.settlement.payOpenAmount(session, emit, companyId, inv, input, paymentId)) return;
    const set: Partial<InvoiceDoc> = {
      status: 'PAID',
      paidFromStatus: inv.status,
      paidDate: input.paid_date,
      paymentMethod: input.payment_method,
      paymentReference: input.payment_reference,
      updatedAt: deps.now(),
    };
    if (!(await deps.invoices.moveStatus(companyId, inv.id, inv.status, set, session)))
      throw conflict(`invoice ${inv.id} changed meanwhile; retry`, 'CONCURRENT_MODIFICATION');
    emit(statusChanged(companyId, inv, 'PAID', `status-${companyId}-${inv.id}-PAID`, { paidDate: input.paid_date }));
  });
}
