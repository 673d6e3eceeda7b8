import type { EventOf } from '@inv/runtime';
import type { LedgerInvoiceDoc } from '../db/ledger';
import { nextLedgerStatus, withRecordedPayment, withReversedPayment } from '../domain/ledger-rules';
import type { CustomerDeps } from '../support/deps';

type PaymentEvent = EventOf<'invoice.payment-recorded.v1'> | EventOf<'invoice.payment-reversed.v1'>;

/**
 * A payment recorded on an invoice, or its reversal: the invoice's payment list in the ledger changes (at most once per
 * envelope id, and idempotent by payment id). Order-independent: a reversal that arrives before its payment is kept as
 * a reversed payment, and the payment arriving later does not bring it back. An event ahead of the finalized one makes
 * a placeholder entry (shown once the finalized event fills it).
 */
export async function onPaymentEvent(deps: CustomerDeps, msg: PaymentEvent) {
  const d = msg.data;
  await deps.commitOnce(msg, async (session) => {
    const current = await deps.ledger.get(msg.companyId, d.invoiceId, session);
    const payment = { paymentId: d.paymentId, amount: d.amount, date: d.date, ...(d.discount ? { discount: d.discount } : {}) };
    const payments =
      msg.type === 'invoice.payment-recorded.v1'
        ? withRecordedPayment(current?.payments ?? [], payment)
        : withReversedPayment(current?.payments ?? [], payment);
    const set: Partial<LedgerInvoiceDoc> = { customerId: d.customerId, invoiceId: d.invoiceId, payments, updatedAt: deps.now() };
    if (!current?.finalized && d.number) set.number = d.number;
    await deps.ledger.upsert(
      msg.companyId,
      d.invoiceId,
      set,
      current ? {} : { finalized: false, status: nextLedgerStatus(undefined, 'OPEN') },
      session,
    );
  });
}
