import type { CompanyId } from '@inv/contracts';
import { notFound } from '@inv/service-kit';
import type { InboundDeps } from '../support/deps';
import { supplierChanged } from '../support/supplier-changed';

/** Removes a register entry and announces it (supplier.changed.v1); documents matched to it keep their supplier_id (what was known when they arrived). */
export async function deleteSupplier(deps: InboundDeps, companyId: CompanyId, id: number): Promise<void> {
  await deps.commit(async (session, emit) => {
    if (!(await deps.suppliers.remove(companyId, id, session))) throw notFound('supplier');
    emit(supplierChanged(companyId, id, 'deleted', []));
  });
}
