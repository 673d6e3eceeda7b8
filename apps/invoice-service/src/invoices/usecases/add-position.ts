import type { CompanyId, PositionCreate, PositionCreateInput } from '@inv/contracts';
import { eventMessage, givenFields } from '@inv/runtime';
import { AppError, invalidData } from '@inv/service-kit';
import type { InvoiceDoc } from '../db/invoices';
import type { DerivedValueWarning } from '../domain/totals';
import type { InvoicesDeps } from '../deps';
import { MAX_POSITIONS } from './draft-rules';
import { assertPositionAmounts, changePositions, toPosition } from './position-store';

/**
 * With product_id, the product's values fill what the request leaves out; the position keeps a copy of them
 * (and the product id for reference), so later product changes never touch this invoice.
 */
export async function withProduct(deps: InvoicesDeps, companyId: CompanyId, input: PositionCreateInput): Promise<PositionCreate> {
  if (input.product_id === undefined) return input as PositionCreate;
  const product = await deps.products.get(companyId, input.product_id);
  if (!product)
    throw invalidData(`product ${input.product_id} does not exist`, [
      { path: 'product_id', message: 'unknown product; see GET /products/' },
    ]);
  if (!product.active) throw new AppError('conflict', `product ${input.product_id} is inactive`, { code: 'PRODUCT_INACTIVE' });
  const treatment = input.tax_treatment_id ?? product.taxTreatmentId;
  return {
    ...input,
    title: input.title ?? product.name,
    description: input.description ?? product.description,
    unit_id: input.unit_id ?? product.unitCode,
    unit_net_amount: input.unit_net_amount ?? product.unitPrice,
    tax_treatment_id: treatment,
    // the product's rate belongs to the product's treatment; another treatment brings its own default rate
    tax_rate: input.tax_rate ?? (treatment === product.taxTreatmentId ? product.taxRate : undefined),
  };
}

/** Adds a position; answers its id, the invoice as written (no second read) and the derived values replaced. */
export async function addPosition(
  deps: InvoicesDeps,
  companyId: CompanyId,
  invoiceId: number,
  input: PositionCreateInput,
): Promise<{ id: number; invoice: InvoiceDoc; warnings: DerivedValueWarning[] }> {
  const { invoice, value: position } = await changePositions(deps, companyId, invoiceId, async (inv) => {
    if (inv.positions.length >= MAX_POSITIONS) throw invalidData(`an invoice has at most ${MAX_POSITIONS} positions`);
    const added = toPosition(0, await withProduct(deps, companyId, input), inv.taxTreatmentId);
    if (input.product_id !== undefined) added.productId = input.product_id;
    const warnings = assertPositionAmounts(added, input.single_net_amount);
    added.id = await deps.positionIds(companyId);
    // for the audit log, written with the change
    const announced = eventMessage('invoice.changed.v1', companyId, {
      invoiceId,
      action: 'position_added',
      positionId: added.id,
      fields: givenFields(input),
    });
    return { positions: [...inv.positions, added], value: { added, warnings }, messages: [announced] };
  });
  return { id: position.added.id, invoice, warnings: position.warnings };
}
