import { defaultRateOfTreatment, type ProductUpdate, type CompanyId } from '@inv/contracts';
import { notFound } from '@inv/service-kit';
import type { ProductDoc } from '../db/products';
import type { InvoicesDeps } from '../deps';
import { duplicateSku, productChanged } from '../domain/product-rules';

export async function updateProduct(deps: InvoicesDeps, companyId: CompanyId, id: number, input: ProductUpdate): Promise<ProductDoc> {
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
      emit(productChanged(companyId, id, 'updated', Object.keys(input)));
      return after;
    });
  } catch (err) {
    throw duplicateSku(err, input.sku);
  }
}
