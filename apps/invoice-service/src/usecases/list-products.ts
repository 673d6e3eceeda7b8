import type { ProductListQuery } from '@inv/contracts';
import type { InvoiceDeps } from './deps';

export const listProducts = (deps: InvoiceDeps, companyId: string, q: ProductListQuery) => deps.products.list(companyId, q);
