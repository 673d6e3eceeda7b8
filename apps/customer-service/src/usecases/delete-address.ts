import type { CompanyId } from '@inv/contracts';
import { findAddress, saveAddresses } from '../support/address-rules';
import type { CustomerDeps } from '../support/deps';
import { loadCustomer } from './load-customer';

/**
 * Deletes an address. Deleting the last billing address is allowed (invoice validation then reports
 * the missing billing address); the remaining addresses keep their flags.
 */
export async function deleteAddress(deps: CustomerDeps, companyId: CompanyId, customerId: number, addressId: number): Promise<void> {
  const c = await loadCustomer(deps, companyId, customerId);
  findAddress(c, addressId);
  await saveAddresses(
    deps,
    c,
    c.addresses.filter((a) => a.id !== addressId),
    { action: 'address_deleted', addressId, fields: [] },
  );
}
