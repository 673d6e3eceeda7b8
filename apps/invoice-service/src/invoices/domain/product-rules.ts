/** What the product use cases share: the SKU conflict and the catalog's change announcement. */
import type { CompanyId } from '@inv/contracts';
import { eventMessage } from '@inv/runtime';
import { conflict } from '@inv/service-kit';

export const duplicateSku = (err: unknown, sku: string | null | undefined) => {
  if ((err as { code?: number }).code === 11000) return conflict(`the SKU ${sku} is already used by another product`, 'DUPLICATE_SKU');
  return err;
};

export const productChanged = (companyId: CompanyId, productId: number, action: 'created' | 'updated' | 'deleted', fields: string[]) =>
  eventMessage('product.changed.v1', companyId, { productId, action, fields });
