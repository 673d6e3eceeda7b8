import type { CompanyId, Supplier, SupplierInput } from '@inv/contracts';
import { notFound } from '@inv/service-kit';
import { givenFields } from '@inv/runtime';
import { checkedIbans } from '../domain/supplier-rules';
import type { InboundDeps } from '../support/deps';
import { toSupplier } from '../http/presenters';
import { supplierChanged } from '../support/supplier-changed';

/** Replaces a register entry (PUT: fields left out are removed) and announces it (supplier.changed.v1). */
export async function updateSupplier(deps: InboundDeps, companyId: CompanyId, id: number, input: SupplierInput): Promise<Supplier> {
  const ibans = checkedIbans(input);
  const fields = { name: input.name, vatId: input.vat_id, peppolId: input.peppol_id, ibans, updatedAt: deps.now() };
  // the answer is the commit's result (a retry with the same Idempotency-Key gets it again); a miss writes and announces nothing
  return deps.commit(async (session, emit) => {
    const replaced = await deps.suppliers.replace(companyId, id, fields, session);
    if (!replaced) throw notFound('supplier');
    emit(supplierChanged(companyId, id, 'updated', givenFields(input)));
    return toSupplier(replaced);
  });
}
