import { NUMBER_BOUNDS, vatCategoryOfTreatment } from '@inv/contracts';
import type { FieldError } from '@inv/service-kit';
import { computeTotals, roundAmount, toDecimal, toJsonNumber, type InvoiceTotals } from '@inv/money';
import type { PositionDoc } from './invoice';

/** VAT category of a position: a standard treatment at a 0 rate is zero-rated (Z). */
export function vatOf(p: Pick<PositionDoc, 'taxRate' | 'taxTreatmentId'>) {
  const base = vatCategoryOfTreatment[p.taxTreatmentId];
  const percent = toDecimal(p.taxRate).times(100);
  const category = base === 'S' && percent.isZero() ? 'Z' : base;
  return { category, rate: percent.toFixed(), treatment: p.taxTreatmentId } as const;
}

/**
 * Totals already computed, by position list. A request used to total the same list up to three times (the
 * check before a write, the gross for sorting, the response), ~17 µs per position each on this VM
 * (docs/performance.md). A list is never changed once built (a change builds a new list), and it is frozen when
 * its totals are kept, so that a change in place fails loudly instead of leaving stale totals here.
 */
const computed = new WeakMap<readonly PositionDoc[], InvoiceTotals>();

/** EN 16931 totals of the positions (decimal arithmetic; libs/money). Throws RangeError when they cannot be computed. */
export function totalsOf(positions: PositionDoc[]): InvoiceTotals {
  const known = computed.get(positions);
  if (known) return known;
  const totals = compute(positions);
  for (const p of positions) Object.freeze(p);
  // shared by every caller from now on: frozen too
  for (const part of [totals.lines, totals.vatBreakdown]) for (const entry of Object.freeze(part)) Object.freeze(entry);
  computed.set(Object.freeze(positions), Object.freeze(totals));
  return totals;
}

function compute(positions: PositionDoc[]): InvoiceTotals {
  return computeTotals({
    lines: positions.map((p) => ({
      quantity: p.quantity,
      unitPrice: p.unitPrice,
      discount: p.discountType && p.discountValue !== undefined ? { type: p.discountType, value: p.discountValue } : undefined,
      vat: vatOf(p),
    })),
  });
}

/**
 * A stored decimal as a JSON number that never throws: exact where the input bounds hold (always, for
 * data accepted since), the nearest double otherwise, null for text that is no decimal at all.
 */
export function jsonNumber(value: string): number | null {
  try {
    return toJsonNumber(value);
  } catch {
    try {
      const n = toDecimal(value).toNumber();
      return Number.isFinite(n) ? n : null;
    } catch {
      return null;
    }
  }
}

/** Gross total in cents (for sorting lists by amount); 0 when the positions cannot be totalled. */
export function grossCentsOf(positions: PositionDoc[]): number {
  try {
    return toDecimal(totalsOf(positions).taxInclusiveTotal).times(100).toNumber();
  } catch {
    return 0;
  }
}

/** The service's own quantity x unit price, rounded half up to the cent (what single_net_amount means). */
export function lineAmountOf(p: Pick<PositionDoc, 'quantity' | 'unitPrice'>) {
  return roundAmount(toDecimal(p.quantity).times(toDecimal(p.unitPrice)));
}

/**
 * Amount rule of one position: its line amount stays within the documented bound (so totals of up to
 * MAX_POSITIONS lines stay exact JSON numbers).
 */
export function positionAmountErrors(p: Pick<PositionDoc, 'quantity' | 'unitPrice'>): FieldError[] {
  const own = lineAmountOf(p);
  if (own.abs().greaterThan(NUMBER_BOUNDS.maxAmount)) {
    return [
      {
        path: 'unit_net_amount',
        message: `quantity x unit_net_amount = ${own.toFixed(2)} exceeds the largest line amount ${NUMBER_BOUNDS.maxAmount}`,
      },
    ];
  }
  return [];
}

/** A value the service derives itself and replaced; answered next to the 201/200 (never a failed request). */
export interface DerivedValueWarning {
  field: string;
  code: 'DERIVED_VALUE_REPLACED';
  message: string;
}

/**
 * single_net_amount is derived (quantity x unit_net_amount, rounded half up to the cent): whatever the client
 * sends, the service's value wins. A client value within a cent is float noise and passes silently; beyond
 * that the request still succeeds and the answer carries a warning naming both values.
 */
export function derivedValueWarnings(
  p: Pick<PositionDoc, 'quantity' | 'unitPrice'>,
  clientLineAmount: string | undefined,
): DerivedValueWarning[] {
  if (clientLineAmount === undefined) return [];
  const own = lineAmountOf(p);
  if (!toDecimal(clientLineAmount).minus(own).abs().greaterThan('0.01')) return [];
  return [
    {
      field: 'single_net_amount',
      code: 'DERIVED_VALUE_REPLACED',
      message: `single_net_amount ${clientLineAmount} replaced by quantity x unit_net_amount = ${own.toFixed(2)} (the service derives it)`,
    },
  ];
}
