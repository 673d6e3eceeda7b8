import type { CompanyId } from '@inv/contracts';
import { notFound } from '@inv/service-kit';
import type { InvoicesDeps } from '../deps';
import { productChanged } from '../domain/product-rules';

/** Issued and draft invoices keep their copies of the product's values; deleting only removes it from the catalog. */
export async function deleteProduct(deps: InvoicesDeps, companyId: CompanyId, id: number): Promise<void> {
  await deps.commit(async (session, emit) => {
    if (!(await deps.products.remove(companyId, id, session))) throw notFound(`product ${id}`);
    emit(productChanged(companyId, id, 'deleted', []));
  });
}
