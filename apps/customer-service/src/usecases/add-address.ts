import type { CompanyId, AddressCreate } from '@inv/contracts';
import { invalidData } from '@inv/service-kit';
import type { AddressDoc } from '../domain/customer-doc';
import { withDefault } from '../domain/customer';
import { assertPostalCode, MAX_ADDRESSES, nextAddressId, saveAddresses } from '../support/address-rules';
import type { CustomerDeps } from '../support/deps';
import { givenFields } from '@inv/runtime';
import { loadCustomer } from './load-customer';

export async function addAddress(deps: CustomerDeps, companyId: CompanyId, customerId: number, input: AddressCreate): Promise<number> {
  const c = await loadCustomer(deps, companyId, customerId);
  if (c.addresses.length >= MAX_ADDRESSES) throw invalidData(`a customer has at most ${MAX_ADDRESSES} addresses`);
  const address: AddressDoc = {
    id: await nextAddressId(deps, companyId, c.addresses),
    type: input.type,
    isDefault: false,
    addressLine1: input.address_line_1,
    addressLine2: input.address_line_2,
    company: input.company,
    postalCode: input.postal_code,
    city: input.city,
    stateProvince: input.state_province,
    countryCode: input.country_code,
    createdAt: deps.now(),
  };
  assertPostalCode(address);
  let addresses = [...c.addresses, address];
  // The first address of a type is its default unless the client says otherwise.
  const firstOfType = !c.addresses.some((a) => a.type === address.type);
  if (input.is_default ?? firstOfType) addresses = withDefault(addresses, address.id, address.type);
  // the id the commit stored (an earlier attempt's on a retry with the same Idempotency-Key)
  return saveAddresses(deps, c, addresses, { action: 'address_added', addressId: address.id, fields: givenFields(input) });
}
