/** The product catalog: values a position can be filled from (copied, never referenced live). */
import { defaultRateOfTreatment, type ProductInput, type ProductListQuery, type ProductUpdate } from '@inv/contracts';
import { eventMessage } from '@inv/runtime';
import { conflict, notFound } from '@inv/service-kit';
import type { ProductDoc } from '../db/products';
import type { InvoiceDeps } from './deps';

const duplicateSku = (err: unknown, sku: string | null | undefined) => {
  if ((err as { code?: number }).code === 11000) return conflict(`the SKU ${sku} is already used by another product`, 'DUPLICATE_SKU');
  return err;
};

const changed = (companyId: string, productId: number, action: 'created' | 'updated' | 'deleted', fields: string[]) =>
  eventMessage('product.changed.v1', companyId, { productId, action, fields });

export async function createProduct(deps: InvoiceDeps, companyId: string, input: ProductInput): Promise<ProductDoc> {
  const treatment = input.tax_treatment_id ?? 'standard';
  const now = deps.now();
  const doc: ProductDoc = {
    _id: await deps.counters.next('product'),
    companyId,
    name: input.name,
    description: input.description ?? undefined,
    unitCode: input.unit_id,
    unitPrice: input.unit_net_amount,
    taxRate: input.tax_rate ?? defaultRateOfTreatment[treatment],
    taxTreatmentId: treatment,
    sku: input.sku ?? undefined,
    active: input.active ?? true,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await deps.commit(async (session, emit) => {
      await deps.products.insert(doc, session);
      emit(changed(companyId, doc._id, 'created', Object.keys(input)));
    });
  } catch (err) {
    throw duplicateSku(err, input.sku);
  }
  return doc;
}

export async function getProduct(deps: InvoiceDeps, companyId: string, id: number): Promise<ProductDoc> {
  const p = await deps.products.get(companyId, id);
  if (!p) throw notFound(`product ${id}`);
  return p;
}

export const listProducts = (deps: InvoiceDeps, companyId: string, q: ProductListQuery) => deps.products.list(companyId, q);

export async function updateProduct(deps: InvoiceDeps, companyId: string, id: number, input: ProductUpdate): Promise<ProductDoc> {
  const set: Partial<ProductDoc> = { updatedAt: deps.now() };
  const unset: Record<string, 1> = {};
  if (input.name !== undefined) set.name = input.name;
  if (input.description === null) unset.description = 1;
  else if (input.description !== undefined) set.description = input.description;
  if (input.unit_id !== undefined) set.unitCode = input.unit_id;
  if (input.unit_net_amount !== undefined) set.unitPrice = input.unit_net_amount;
  if (input.tax_treatment_id !== undefined) set.taxTreatmentId = input.tax_treatment_id;
  if (input.tax_rate !== undefined) set.taxRate = input.tax_rate;
  else if (input.tax_treatment_id !== undefined) set.taxRate = defaultRateOfTreatment[input.tax_treatment_id];
  if (input.sku === null) unset.sku = 1;
  else if (input.sku !== undefined) set.sku = input.sku;
  if (input.active !== undefined) set.active = input.active;
  try {
    return await deps.commit(async (session, emit) => {
      const after = await deps.products.update(companyId, id, set, unset, session);
      if (!after) throw notFound(`product ${id}`);
      emit(changed(companyId, id, 'updated', Object.keys(input)));
      return after;
    });
  } catch (err) {
    throw duplicateSku(err, input.sku);
  }
}

/** Issued and draft invoices keep their copies of the product's values; deleting only removes it from the catalog. */
export async function deleteProduct(deps: InvoiceDeps, companyId: string, id: number): Promise<void> {
  await deps.commit(async (session, emit) => {
    if (!(await deps.products.remove(companyId, id, session))) throw notFound(`product ${id}`);
    emit(changed(companyId, id, 'deleted', []));
  });
}
