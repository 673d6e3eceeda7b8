import type { CompanyId, Supplier } from '@inv/contracts';
import { notFound } from '@inv/service-kit';
import type { InboundDeps } from '../support/deps';
import { toSupplier } from '../http/presenters';

export async function getSupplier(deps: InboundDeps, companyId: CompanyId, id: number): Promise<Supplier> {
  const doc = await deps.suppliers.get(companyId, id);
  if (!doc) throw notFound('supplier');
  return toSupplier(doc);
}
