import type { EventOf } from '@inv/runtime';
import type { ExportDeps } from '../support/deps';

type PaymentEvent = EventOf<'invoice.payment-recorded.v1'> | EventOf<'invoice.payment-reversed.v1'>;

const fieldsOf = (msg: PaymentEvent) => {
  const d = msg.data;
  return {
    paymentId: d.paymentId,
    invoiceId: d.invoiceId,
    customerId: d.customerId,
    number: d.number,
    amount: d.amount,
    date: d.date,
    ...(d.discount ? { discount: d.discount } : {}),
    ...('typeCode' in d && d.typeCode ? { typeCode: d.typeCode } : {}),
  };
};

/**
 * A payment recorded on an issued invoice enters the export's read model, at most once per envelope id and idempotent
 * by payment id; its reversal marks it reversed (in either order), so a reversed payment that was not exported yet
 * never reaches an export.
 */
export async function projectPayment(deps: ExportDeps, msg: PaymentEvent) {
  await deps.commitOnce(msg, async (session) => {
    if (msg.type === 'invoice.payment-recorded.v1') await deps.payments.recorded(msg.companyId, fieldsOf(msg), deps.now(), session);
    else await deps.payments.reversed(msg.companyId, fieldsOf(msg), deps.now(), session);
  });
}
