import type { CompanyId, AddressUpdate } from '@inv/contracts';
import type { AddressDoc } from '../domain/customer-doc';
import { withDefault } from '../domain/customer';
import { assertPostalCode, findAddress, saveAddresses } from '../support/address-rules';
import type { CustomerDeps } from '../support/deps';
import { givenFields } from '@inv/runtime';
import { loadCustomer } from './load-customer';

export async function updateAddress(
  deps: CustomerDeps,
  companyId: CompanyId,
  customerId: number,
  addressId: number,
  input: AddressUpdate,
): Promise<AddressDoc> {
  const c = await loadCustomer(deps, companyId, customerId);
  const old = findAddress(c, addressId);
  const typeChanged = input.type !== undefined && input.type !== old.type;
  const merged: AddressDoc = {
    ...old,
    type: input.type ?? old.type,
    // Moving an address to the other type does not make it that type's default unless asked to.
    isDefault: input.is_default ?? (typeChanged ? false : old.isDefault),
    addressLine1: input.address_line_1 ?? old.addressLine1,
    addressLine2: input.address_line_2 ?? old.addressLine2,
    company: input.company ?? old.company,
    postalCode: input.postal_code ?? old.postalCode,
    city: input.city ?? old.city,
    stateProvince: input.state_province ?? old.stateProvince,
    countryCode: input.country_code ?? old.countryCode,
  };
  assertPostalCode(merged);
  let addresses = c.addresses.map((a) => (a.id === addressId ? merged : a));
  if (merged.isDefault) addresses = withDefault(addresses, addressId, merged.type);
  await saveAddresses(deps, c, addresses, { action: 'address_updated', addressId, fields: givenFields(input) });
  return merged;
}
