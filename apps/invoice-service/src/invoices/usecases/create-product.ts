/** The product catalog: values a position can be filled from (copied, never referenced live). */
import { defaultRateOfTreatment, type ProductInput, type CompanyId } from '@inv/contracts';
import { productCounter } from '../../platform';
import type { ProductDoc } from '../db/products';
import type { InvoicesDeps } from '../deps';
import { duplicateSku, productChanged } from '../domain/product-rules';

export async function createProduct(deps: InvoicesDeps, companyId: CompanyId, input: ProductInput): Promise<Omit<ProductDoc, '_id'>> {
  const treatment = input.tax_treatment_id ?? 'standard';
  const now = deps.now();
  const doc: Omit<ProductDoc, '_id'> = {
    id: await deps.counters.next(productCounter(companyId)),
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
      emit(productChanged(companyId, doc.id, 'created', Object.keys(input)));
    });
  } catch (err) {
    throw duplicateSku(err, input.sku);
  }
  return doc;
}
