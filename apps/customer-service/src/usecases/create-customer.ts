import type { CompanyId, CustomerCreate } from '@inv/contracts';
import { companyKey } from '@inv/runtime';
import { customerCounter } from '../db/customers';
import type { CustomerDoc } from '../domain/customer-doc';
import { needsVatCheck } from '../domain/customer';
import {
  assertReferences,
  checksumVerdict,
  fieldsOf,
  nextCustomerNumber,
  vatCheckEvent,
  customerChangedEvent,
} from '../support/customer-rules';
import type { CustomerDeps } from '../support/deps';

export async function createCustomer(deps: CustomerDeps, companyId: CompanyId, input: CustomerCreate): Promise<number> {
  await assertReferences(deps, companyId, input);
  const now = deps.now();
  const id = await deps.counters.next(customerCounter(companyId));
  const fields = fieldsOf(input);
  const doc: CustomerDoc = {
    _id: companyKey(companyId, id),
    id,
    companyId,
    customerNumber: await nextCustomerNumber(deps, companyId),
    contactType: input.contact_type,
    isActive: true,
    ...fields,
    addresses: [],
    vat: { status: 'not_checked' },
    rev: 0,
    createdAt: now,
    updatedAt: now,
  };
  const check = needsVatCheck(undefined, doc) && !checksumVerdict(doc, now);
  if (check && doc.vatId) doc.vat = { status: 'pending', vatId: doc.vatId, requestedAt: now };
  // the id the commit stored is the answer: a retry with the same Idempotency-Key whose first attempt committed gets
  // that customer's id (its commit is replayed), never this attempt's unused one
  return deps.commit(async (session, emit) => {
    await deps.customers.insert(doc, session);
    if (check && doc.vatId) emit(vatCheckEvent(companyId, id, doc.vatId));
    emit(customerChangedEvent(companyId, id, 'created', input));
    return id;
  });
}
