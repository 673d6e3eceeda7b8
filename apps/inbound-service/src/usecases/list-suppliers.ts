import type { CompanyId, Supplier } from '@inv/contracts';
import type { InboundDeps } from '../support/deps';
import { toSupplier } from '../http/presenters';

export async function listSuppliers(
  deps: InboundDeps,
  companyId: CompanyId,
  page: number,
  limit: number,
): Promise<{ items: Supplier[]; total: number }> {
  const { items, total } = await deps.suppliers.list(companyId, page, limit);
  return { items: items.map(toSupplier), total };
}
