import { vatCategoryOfTreatment } from '@inv/contracts';
import { computeTotals, toDecimal, toJsonNumber, type InvoiceTotals } from '@inv/money';
import type { PositionDoc } from '../db/invoices';

/** VAT category of a position: a standard treatment at a 0 rate is zero-rated (Z). */
export function vatOf(p: Pick<PositionDoc, 'taxRate' | 'taxTreatmentId'>) {
  const base = vatCategoryOfTreatment[p.taxTreatmentId];
  const percent = toDecimal(p.taxRate).times(100);
  const category = base === 'S' && percent.isZero() ? 'Z' : base;
  return { category, rate: percent.toFixed(), treatment: p.taxTreatmentId } as const;
}

/** EN 16931 totals of the positions (decimal arithmetic; libs/money). */
export function totalsOf(positions: PositionDoc[]): InvoiceTotals {
  return computeTotals({
    lines: positions.map((p) => ({
      quantity: p.quantity,
      unitPrice: p.unitPrice,
      discount: p.discountType && p.discountValue !== undefined ? { type: p.discountType, value: p.discountValue } : undefined,
      vat: vatOf(p),
    })),
  });
}

/** The totals as the API shows them: JSON numbers, rounded to the cent. */
export function presentTotals(totals: InvoiceTotals) {
  return {
    net_amount: toJsonNumber(totals.taxExclusiveTotal),
    tax_amount: toJsonNumber(totals.vatTotal),
    gross_amount: toJsonNumber(totals.taxInclusiveTotal),
    amount_due: toJsonNumber(totals.amountDue),
    currency: 'EUR',
    vat_breakdown: totals.vatBreakdown.map((v) => ({
      vat_category: v.category,
      tax_rate: toJsonNumber(toDecimal(v.rate).dividedBy(100)),
      net_amount: toJsonNumber(v.taxableAmount),
      tax_amount: toJsonNumber(v.taxAmount),
    })),
  };
}
