import { eventMessage } from '@inv/runtime';
/** What the address use cases share: the cap, the lookup, the postal-code check and the optimistic write. */
import { AppError, invalidData, notFound } from '@inv/service-kit';
import type { AddressDoc, CustomerDoc } from '../db/customers';
import { postalCodeProblem } from '../domain/postal-codes';
import type { CustomerDeps } from './deps';

export const MAX_ADDRESSES = 100;

export function findAddress(c: CustomerDoc, addressId: number): AddressDoc {
  const a = c.addresses.find((x) => x.id === addressId);
  if (!a) throw notFound(`address ${addressId} of customer ${c._id}`);
  return a;
}

export function assertPostalCode(a: Pick<AddressDoc, 'countryCode' | 'postalCode'>) {
  const problem = a.postalCode ? postalCodeProblem(a.countryCode, a.postalCode) : undefined;
  if (problem) throw invalidData(`invalid request: postal_code: ${problem}`, [{ path: 'postal_code', message: problem }]);
}

/** Writes the address list only if nobody changed the customer meanwhile (optimistic check on rev). */
/** What an address change was, announced for the audit log with the change (field names, never values). */
export interface AddressChange {
  action: 'address_added' | 'address_updated' | 'address_deleted';
  addressId: number;
  fields: string[];
}

export async function saveAddresses(deps: CustomerDeps, c: CustomerDoc, addresses: AddressDoc[], change: AddressChange) {
  await deps.commit(async (session, emit) => {
    if (!(await deps.customers.updateAtRev(c.companyId, c._id, c.rev, { addresses, updatedAt: deps.now() }, session)))
      throw new AppError('conflict', 'the customer changed meanwhile; retry the request', { code: 'CONCURRENT_MODIFICATION' });
    emit(eventMessage('customer.changed.v1', c.companyId, { customerId: c._id, ...change }));
  });
}
