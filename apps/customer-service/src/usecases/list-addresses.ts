import type { CompanyId } from '@inv/contracts';
import type { AddressDoc } from '../domain/customer-doc';
import type { CustomerDeps } from '../support/deps';
import { loadCustomer } from './load-customer';

export async function listAddresses(deps: CustomerDeps, companyId: CompanyId, customerId: number): Promise<AddressDoc[]> {
  return (await loadCustomer(deps, companyId, customerId)).addresses;
}
