import type { RpcRequestOf } from '@inv/runtime';
import { billingSnapshotOf } from '../domain/customer';
import type { CustomerDeps } from '../support/deps';

/** The buyer as invoice-service freezes it; `found: false` for another company's or an unknown id. */
export async function onBillingSnapshot(deps: CustomerDeps, msg: RpcRequestOf<'customer.billing-snapshot.v1'>) {
  const customer = await deps.customers.get(msg.companyId, msg.data.customerId);
  return customer ? billingSnapshotOf(customer) : { found: false, hasBillingAddress: false, vatStatus: 'not_checked' as const };
}
