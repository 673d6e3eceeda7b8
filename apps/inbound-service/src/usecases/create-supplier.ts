import type { CompanyId, Supplier, SupplierInput } from '@inv/contracts';
import { givenFields } from '@inv/runtime';
import { checkedIbans } from '../domain/supplier-rules';
import type { InboundDeps } from '../support/deps';
import { toSupplier } from '../http/presenters';
import { supplierChanged } from '../support/supplier-changed';

/** Adds a supplier to the register (ids per company from 1: counter `supplier:<company>`). */
export async function createSupplier(deps: InboundDeps, companyId: CompanyId, input: SupplierInput): Promise<Supplier> {
  const ibans = checkedIbans(input);
  const now = deps.now();
  const id = await deps.counters.next(`supplier:${companyId}`);
  const doc = { companyId, id, name: input.name, vatId: input.vat_id, peppolId: input.peppol_id, ibans, createdAt: now, updatedAt: now };
  // a commit whose result is the supplier stored: a retry with the same Idempotency-Key whose first attempt committed
  // gets that supplier (its commit is replayed), never a second one under this attempt's id; announced with it
  return deps.commit(async (session, emit) => {
    await deps.suppliers.insert(doc, session);
    emit(supplierChanged(companyId, id, 'created', givenFields(input)));
    return toSupplier({ _id: `${companyId}:${id}`, ...doc });
  });
}
