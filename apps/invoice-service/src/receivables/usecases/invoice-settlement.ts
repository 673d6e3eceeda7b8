import type { InvoiceSettlement } from '../../invoices';
import { centsToText, openCentsOf, paymentStateOf } from '../domain/payments';
import type { PaymentDeps } from '../deps';
import { recordPaymentIn } from './record-payment';
import { settleCreditNoteIn } from './settle-credit-note';

/**
 * The receivables' side of the invoices feature's transactions (invoices/deps.ts InvoiceSettlement): a finalized
 * credit note settles against its invoice, and the PAID shortcut pays the open amount. `deps` is read at each call, so
 * the composition root can hand over the deps object it is building.
 */
export function invoiceSettlement(deps: () => PaymentDeps): InvoiceSettlement {
  return {
    async creditNoteFinalized(session, emit, companyId, note, now) {
      await settleCreditNoteIn(deps(), session, emit, companyId, note, now);
    },
    async payOpenAmount(session, emit, companyId, inv, input, paymentId) {
      const open = openCentsOf(paymentStateOf(inv));
      if (open <= 0) return false;
      await recordPaymentIn(
        deps(),
        session,
        emit,
        companyId,
        inv.id,
        {
          amount: centsToText(open),
          date: input.paid_date,
          method: input.payment_method,
          reference: input.payment_reference,
          skonto: false,
        },
        'status',
        paymentId,
      );
      return true;
    },
  };
}
