import type { CompanyId } from '@inv/contracts';
import type { AddressDoc } from '../domain/customer-doc';
import { findAddress } from '../support/address-rules';
import type { CustomerDeps } from '../support/deps';
import { loadCustomer } from './load-customer';

export async function getAddress(deps: CustomerDeps, companyId: CompanyId, customerId: number, addressId: number): Promise<AddressDoc> {
  return findAddress(await loadCustomer(deps, companyId, customerId), addressId);
}
