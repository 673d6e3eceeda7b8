import type { CompanyId } from '@inv/contracts';
import { eventMessage } from '@inv/runtime';
import { conflict, notFound } from '@inv/service-kit';
import { canMoveByPayment, statusAfterReversal, statusChanged, type InvoiceDoc } from '../../invoices';
import type { PaymentDoc } from '../db/payments';
import { amountToCents, centsToText, openCentsOf, paymentStateOf } from '../domain/payments';
import type { ReceivablesDeps } from '../deps';

/**
 * Reverses a payment that is not exported yet (POST /invoice/{id}/payments/{paymentId}/reverse): the invoice is open
 * again by its amount and discount; a PAID invoice returns to the status it was paid in (SENT or OPEN). Publishes
 * invoice.payment-reversed.v1, and invoice.status-changed.v1 SENT when it returns to SENT (the event knows no OPEN).
 * Reversing a reversed payment again answers it unchanged. 409 PAYMENT_EXPORTED once it is in a DATEV export.
 */
export async function reversePayment(
  deps: ReceivablesDeps,
  companyId: CompanyId,
  invoiceId: number,
  paymentId: number,
): Promise<PaymentDoc> {
  return deps.commit(async (session, emit) => {
    const payment = await deps.payments.get(companyId, paymentId, session);
    if (!payment || payment.invoiceId !== invoiceId) throw notFound(`payment ${paymentId} of invoice ${invoiceId}`);
    if (payment.reversedAt) return payment; // repeating the reversal is harmless
    if (payment.exportedAt) throw conflict(`payment ${paymentId} is in a DATEV export and can no longer be reversed`, 'PAYMENT_EXPORTED');
    const inv = await deps.invoices.get(companyId, invoiceId, session);
    if (!inv) throw notFound(`invoice ${invoiceId}`);
    const state = paymentStateOf(inv);
    const paidCents = state.paidCents - amountToCents(payment.amount);
    const discountCents = state.discountCents - amountToCents(payment.discount);
    const now = deps.now();
    const set: Partial<InvoiceDoc> = { paidCents, discountCents, updatedAt: now };
    const unset: Array<keyof InvoiceDoc> = [];
    let back: 'OPEN' | 'SENT' | undefined;
    if (inv.status === 'PAID') {
      back = statusAfterReversal(inv.paidFromStatus);
      if (!canMoveByPayment('PAID', back)) throw conflict(`invoice ${invoiceId} cannot become ${back}`, 'INVALID_STATUS_TRANSITION');
      set.status = back;
      unset.push('paidDate', 'paymentMethod', 'paymentReference', 'paidFromStatus');
    }
    if (!(await deps.invoices.settle(companyId, invoiceId, inv, set, unset, session)))
      throw conflict(`invoice ${invoiceId} changed meanwhile; retry`, 'CONCURRENT_MODIFICATION');
    const reversed = await deps.payments.reverse(companyId, invoiceId, paymentId, now, session);
    if (!reversed) throw conflict(`payment ${paymentId} changed meanwhile; retry`, 'CONCURRENT_MODIFICATION');
    const openAfter = openCentsOf({ ...state, paidCents, discountCents });
    emit(
      eventMessage(
        'invoice.payment-reversed.v1',
        companyId,
        {
          invoiceId,
          customerId: inv.customerId,
          number: inv.number,
          paymentId,
          amount: payment.amount,
          discount: amountToCents(payment.discount) > 0 ? payment.discount : undefined,
          date: payment.date,
          reversedAt: now.toISOString(),
          openAmount: centsToText(openAfter),
        },
        `payment-reversed-${companyId}-${paymentId}`,
      ),
    );
    if (back === 'SENT') emit(statusChanged(companyId, inv, 'SENT', `status-${companyId}-${invoiceId}-SENT-reversal-${paymentId}`));
    return reversed;
  });
}
