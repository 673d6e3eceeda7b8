import type { AddressCreate, AddressUpdate } from '@inv/contracts';
import { AppError, invalidData, notFound } from '@inv/service-kit';
import type { AddressDoc, CustomerDoc } from '../db/customers';
import { withDefault } from '../domain/customer';
import { postalCodeProblem } from '../domain/postal-codes';
import type { CustomerDeps } from './deps';
import { loadCustomer } from './load-customer';

export const MAX_ADDRESSES = 100;

function findAddress(c: CustomerDoc, addressId: number): AddressDoc {
  const a = c.addresses.find((x) => x.id === addressId);
  if (!a) throw notFound(`address ${addressId} of customer ${c._id}`);
  return a;
}

function assertPostalCode(a: Pick<AddressDoc, 'countryCode' | 'postalCode'>) {
  const problem = a.postalCode ? postalCodeProblem(a.countryCode, a.postalCode) : undefined;
  if (problem) throw invalidData(`invalid request: postal_code: ${problem}`, [{ path: 'postal_code', message: problem }]);
}

/** Writes the address list only if nobody changed the customer meanwhile (optimistic check on rev). */
async function saveAddresses(deps: CustomerDeps, c: CustomerDoc, addresses: AddressDoc[]) {
  if (!(await deps.customers.updateAtRev(c.companyId, c._id, c.rev, { addresses, updatedAt: deps.now() }))) throw new AppError('conflict', 'the customer changed meanwhile; retry the request', { code: 'CONCURRENT_MODIFICATION' });
}

export async function listAddresses(deps: CustomerDeps, companyId: string, customerId: number): Promise<AddressDoc[]> {
  return (await loadCustomer(deps, companyId, customerId)).addresses;
}

export async function getAddress(deps: CustomerDeps, companyId: string, customerId: number, addressId: number): Promise<AddressDoc> {
  return findAddress(await loadCustomer(deps, companyId, customerId), addressId);
}

export async function addAddress(deps: CustomerDeps, companyId: string, customerId: number, input: AddressCreate): Promise<number> {
  const c = await loadCustomer(deps, companyId, customerId);
  if (c.addresses.length >= MAX_ADDRESSES) throw invalidData(`a customer has at most ${MAX_ADDRESSES} addresses`);
  const address: AddressDoc = {
    id: await deps.counters.next('address'),
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
  await saveAddresses(deps, c, addresses);
  return address.id;
}

export async function updateAddress(deps: CustomerDeps, companyId: string, customerId: number, addressId: number, input: AddressUpdate): Promise<AddressDoc> {
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
  await saveAddresses(deps, c, addresses);
  return merged;
}

/**
 * Deletes an address. Deleting the last billing address is allowed (invoice validation then reports
 * the missing billing address); the remaining addresses keep their flags.
 */
export async function deleteAddress(deps: CustomerDeps, companyId: string, customerId: number, addressId: number): Promise<void> {
  const c = await loadCustomer(deps, companyId, customerId);
  findAddress(c, addressId);
  await saveAddresses(deps, c, c.addresses.filter((a) => a.id !== addressId));
}
