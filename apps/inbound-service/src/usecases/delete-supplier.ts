import type { CompanyId } from '@inv/contracts';
import { notFound } from '@inv/service-kit';
import type { InboundDeps } from '../support/deps';
import { supplierChanged } from '../support/supplier-changed';

/** Removes a register entry and announces it (supplier.changed.v1); documents matched to it keep their supplier_id (what was known when they arrived). */
export async function deleteSupplier(deps: InboundDeps, companyId: CompanyId, id: number): Promise<void> {
  const removed = await deps.commit(async (session, emit) => {
    const doc = await deps.suppliers.remove(companyId, id, session);
    if (doc) emit(supplierChanged(companyId, id, 'deleted', []));
    return doc !== null;
  });
  if (!removed) throw notFound('supplier');
}
