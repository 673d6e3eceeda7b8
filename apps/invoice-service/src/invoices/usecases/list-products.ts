import type { CompanyId, ProductListQuery } from '@inv/contracts';
import type { InvoiceDeps } from '../../platform/deps';

export const listProducts = (deps: InvoiceDeps, companyId: CompanyId, q: ProductListQuery) => deps.products.list(companyId, q);
