import type { CompanyId } from '@inv/contracts';
import { notFound } from '@inv/service-kit';
import type { PaymentDoc } from '../db/payments';
import type { ReceivablesDeps } from '../deps';

/** One payment of an invoice (404 when the company has no such payment on that invoice). */
export async function getPayment(deps: ReceivablesDeps, companyId: CompanyId, invoiceId: number, paymentId: number): Promise<PaymentDoc> {
  const payment = await deps.payments.get(companyId, paymentId);
  if (!payment || payment.invoiceId !== invoiceId) throw notFound(`payment ${paymentId} of invoice ${invoiceId}`);
  return payment;
}
