import type { RpcRequestOf } from '@inv/runtime';
import type { CustomerDeps } from '../support/deps';

/** How many of the company's customers name the payment term (account-service refuses to delete it then). */
export async function onPaymentTermUsage(deps: CustomerDeps, msg: RpcRequestOf<'customer.payment-term-usage.v1'>) {
  return { customers: await deps.customers.countWithPaymentTerm(msg.companyId, msg.data.paymentTermId) };
}
