import type { CompanyId } from '@inv/contracts';
import { notFound } from '@inv/service-kit';
import type { ProductDoc } from '../db/products';
import type { InvoiceDeps } from '../../platform/deps';

export async function getProduct(deps: InvoiceDeps, companyId: CompanyId, id: number): Promise<ProductDoc> {
  const p = await deps.products.get(companyId, id);
  if (!p) throw notFound(`product ${id}`);
  return p;
}
