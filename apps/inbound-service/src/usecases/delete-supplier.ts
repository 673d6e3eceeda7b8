import type { CompanyId } from '@inv/contracts';
import { notFound } from '@inv/service-kit';
import type { InboundDeps } from '../support/deps';

/** Removes a register entry; documents matched to it keep their supplier_id (what was known when they arrived). */
export async function deleteSupplier(deps: InboundDeps, companyId: CompanyId, id: number): Promise<void> {
  if (!(await deps.suppliers.remove(companyId, id))) throw notFound('supplier');
}
