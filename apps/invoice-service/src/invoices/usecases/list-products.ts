import type { CompanyId, ProductListQuery } from '@inv/contracts';
import type { InvoicesDeps } from '../deps';

export const listProducts = (deps: InvoicesDeps, companyId: CompanyId, q: ProductListQuery) => deps.products.list(companyId, q);
