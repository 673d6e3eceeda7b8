import { eventMessage } from '@inv/runtime';
/** What the address use cases share: the cap, the lookup, the postal-code check and the optimistic write. */
import { AppError, invalidData, notFound } from '@inv/service-kit';
import type { CompanyId } from '@inv/contracts';
import { addressCounter } from '../db/customers';
import type { AddressDoc, CustomerDoc } from '../domain/customer-doc';
import { postalCodeProblem } from '../domain/postal-codes';
import type { CustomerDeps } from './deps';

export const MAX_ADDRESSES = 100;

/**
 * A new address id from the company's counter (ids per company). Addresses are found within their customer, so an
 * id must be new there: the counter first moves past the customer's ids, which may come from the global counter
 * of before (an address created then keeps its id; the company's counter did not know it).
 */
export async function nextAddressId(deps: CustomerDeps, companyId: CompanyId, existing: AddressDoc[]): Promise<number> {
  const counter = addressCounter(companyId);
  if (existing.length) await deps.counters.atLeast(counter, Math.max(...existing.map((a) => a.id)));
  return deps.counters.next(counter);
}

export function findAddress(c: CustomerDoc, addressId: number): AddressDoc {
  const a = c.addresses.find((x) => x.id === addressId);
  if (!a) throw notFound(`address ${addressId} of customer ${c.id}`);
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

/**
 * Answers the id of the address changed as the commit stored it: a retry with the same Idempotency-Key whose first
 * attempt committed gets that attempt's id (its commit is replayed), never this attempt's unused one.
 */
export async function saveAddresses(deps: CustomerDeps, c: CustomerDoc, addresses: AddressDoc[], change: AddressChange): Promise<number> {
  return deps.commit(async (session, emit) => {
    if (!(await deps.customers.updateAtRev(c.companyId, c.id, c.rev, { addresses, updatedAt: deps.now() }, session)))
      throw new AppError('conflict', 'the customer changed meanwhile; retry the request', { code: 'CONCURRENT_MODIFICATION' });
    emit(eventMessage('customer.changed.v1', c.companyId, { customerId: c.id, ...change }));
    return change.addressId;
  });
}
