import { defaultRateOfTreatment, type PositionUpdate, type CompanyId } from '@inv/contracts';
import { notFound } from '@inv/service-kit';
import type { PositionDoc } from '../db/invoices';
import type { DerivedValueWarning } from '../domain/totals';
import { eventMessage, givenFields } from '@inv/runtime';
import type { InvoicesDeps } from '../deps';
import { assertPositionAmounts, changePositions } from './position-store';

/** Changes the fields sent; answers the derived values the service replaced (warnings, never a failure). */
export async function updatePosition(
  deps: InvoicesDeps,
  companyId: CompanyId,
  invoiceId: number,
  positionId: number,
  input: PositionUpdate,
): Promise<DerivedValueWarning[]> {
  const { value: warnings } = await changePositions(deps, companyId, invoiceId, async (inv) => {
    const index = inv.positions.findIndex((p) => p.id === positionId);
    if (index < 0) throw notFound(`position ${positionId}`);
    const old = inv.positions[index];
    const merged: PositionDoc = {
      ...old,
      title: input.title ?? old.title,
      description: input.description ?? old.description,
      quantity: input.quantity ?? old.quantity,
      unitCode: input.unit_id?.toUpperCase() ?? old.unitCode,
      unitPrice: input.unit_net_amount ?? old.unitPrice,
      taxTreatmentId: input.tax_treatment_id ?? old.taxTreatmentId,
      taxRate: input.tax_rate ?? (input.tax_treatment_id ? defaultRateOfTreatment[input.tax_treatment_id] : old.taxRate),
      discountType: input.discount_type ?? old.discountType,
      discountValue: input.discount_value ?? old.discountValue,
    };
    const warnings = assertPositionAmounts(merged, input.single_net_amount);
    const positions = [...inv.positions];
    positions[index] = merged;
    const announced = eventMessage('invoice.changed.v1', companyId, {
      invoiceId,
      action: 'position_updated',
      positionId,
      fields: givenFields(input),
    });
    return { positions, value: warnings, messages: [announced] };
  });
  return warnings;
}
