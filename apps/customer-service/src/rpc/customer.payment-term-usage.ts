import type { Envelope } from '@inv/bus';
import type { CustomerDeps } from '../usecases/deps';

/** How many of the company's customers name the payment term (account-service refuses to delete it then). */
export async function onPaymentTermUsage(deps: CustomerDeps, msg: Envelope<{ paymentTermId: number }>) {
  return { customers: await deps.customers.countWithPaymentTerm(msg.companyId, msg.data.paymentTermId) };
}
