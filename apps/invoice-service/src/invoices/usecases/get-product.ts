import type { CompanyId } from '@inv/contracts';
import { notFound } from '@inv/service-kit';
import type { ProductDoc } from '../db/products';
import type { InvoicesDeps } from '../deps';

export async function getProduct(deps: InvoicesDeps, companyId: CompanyId, id: number): Promise<ProductDoc> {
  const p = await deps.products.get(companyId, id);
  if (!p) throw notFound(`product ${id}`);
  return p;
}
