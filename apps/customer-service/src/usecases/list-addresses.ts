import type { AddressDoc } from '../db/customers';
import type { CustomerDeps } from './deps';
import { loadCustomer } from './load-customer';

export async function listAddresses(deps: CustomerDeps, companyId: string, customerId: number): Promise<AddressDoc[]> {
  return (await loadCustomer(deps, companyId, customerId)).addresses;
}
