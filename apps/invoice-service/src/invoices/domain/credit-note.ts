import type { CreditNoteCreate } from '@inv/contracts';
import type { FieldError } from '@inv/service-kit';
import { toDecimal } from '@inv/money';
import type { InvoiceDoc, PositionDoc } from './invoice';
import { grossCentsOf } from './totals';

/** A position of a credit note before it gets its own id. */
export type CreditLine = Omit<PositionDoc, 'id'>;

/** The gross an invoice may still be credited, in cents: its gross total less what its credit notes took. */
export function remainingCreditCents(inv: Pick<InvoiceDoc, 'grossCents' | 'creditedCents' | 'positions'>): number {
  return Math.max(0, creditLimitCents(inv) - (inv.creditedCents ?? 0));
}

/** The most an invoice can be credited, in cents: its gross total as finalized. */
export function creditLimitCents(inv: Pick<InvoiceDoc, 'grossCents' | 'positions'>): number {
  return inv.grossCents ?? grossCentsOf([...inv.positions]);
}

/** Cents as the API shows money: a JSON number in euros (exact: cents are integers below 2^53). */
export const centsToAmount = (cents: number) => toDecimal(cents).dividedBy(100).toNumber();

/**
 * The positions of a credit note for `request`: all of the invoice's positions (no positions, no amount), the
 * named positions with the quantities credited, or one position of a gross amount. Answers field errors for
 * positions the invoice does not have, quantities above the invoice's, and amounts that cannot be credited.
 */
export function creditLines(
  inv: Pick<InvoiceDoc, 'positions' | 'number'>,
  request: CreditNoteCreate,
): { lines: CreditLine[]; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const strip = ({ id: _id, ...line }: PositionDoc): CreditLine => ({ ...line });
  if (request.amount !== undefined) return amountLine(inv, request.amount);
  if (!request.positions) return { lines: inv.positions.map(strip), errors };
  const lines: CreditLine[] = [];
  for (const [i, want] of request.positions.entries()) {
    const p = inv.positions.find((x) => x.id === want.position_id);
    if (!p) {
      errors.push({ path: `positions.${i}.position_id`, message: `invoice ${inv.number} has no position ${want.position_id}` });
      continue;
    }
    if (want.quantity === undefined || toDecimal(want.quantity).equals(toDecimal(p.quantity))) {
      lines.push(strip(p));
      continue;
    }
    if (toDecimal(want.quantity).greaterThan(toDecimal(p.quantity))) {
      errors.push({ path: `positions.${i}.quantity`, message: `at most the position's quantity ${p.quantity}` });
      continue;
    }
    if (toDecimal(want.quantity).isZero()) {
      errors.push({ path: `positions.${i}.quantity`, message: 'a credited quantity is above 0 (leave the position out instead)' });
      continue;
    }
    const line = strip(p);
    line.quantity = toDecimal(want.quantity).toFixed();
    // a fixed discount shrinks with the quantity (a percentage stays as it is)
    if (p.discountType === 'FIXED_AMOUNT' && p.discountValue !== undefined)
      line.discountValue = toDecimal(p.discountValue).times(want.quantity).dividedBy(p.quantity).toDecimalPlaces(2).toFixed(2);
    lines.push(line);
  }
  return { lines, errors };
}

/**
 * One position of exactly `amount` gross at the invoice's VAT rate and treatment. An invoice with several rates
 * or treatments has no one rate to split an amount by: credit it by positions. Net amounts are whole cents, so
 * a few gross amounts cannot be reached exactly (at 19 %, 0.01 more net is 0.01 or 0.02 more gross); the
 * message names the nearest ones.
 */
function amountLine(inv: Pick<InvoiceDoc, 'positions' | 'number'>, amount: string): { lines: CreditLine[]; errors: FieldError[] } {
  const rates = new Set(inv.positions.map((p) => `${toDecimal(p.taxRate).toFixed()}|${p.taxTreatmentId}`));
  const [first] = inv.positions;
  if (!first || rates.size !== 1)
    return {
      lines: [],
      errors: [{ path: 'amount', message: `invoice ${inv.number} has several VAT rates or treatments; credit it by positions instead` }],
    };
  const target = toDecimal(amount).times(100).toNumber();
  const lineOf = (netCents: number): CreditLine => ({
    title: `Rechnungskorrektur zu Rechnung ${inv.number}`,
    quantity: '1',
    unitCode: 'C62',
    unitPrice: toDecimal(netCents).dividedBy(100).toFixed(2),
    taxRate: first.taxRate,
    taxTreatmentId: first.taxTreatmentId,
  });
  const grossOf = (netCents: number) => grossCentsOf([{ ...lineOf(netCents), id: 1 }]);
  const estimate = toDecimal(target).dividedBy(toDecimal(1).plus(first.taxRate)).round().toNumber();
  const near: number[] = [];
  for (let net = Math.max(1, estimate - 3); net <= estimate + 3; net++) {
    const gross = grossOf(net);
    if (gross === target) return { lines: [lineOf(net)], errors: [] };
    near.push(gross);
  }
  const below = Math.max(...near.filter((g) => g < target));
  const above = Math.min(...near.filter((g) => g > target));
  const options = [below, above].filter(Number.isFinite).map((c) => centsToAmount(c).toFixed(2));
  return {
    lines: [],
    errors: [
      {
        path: 'amount',
        message: `${amount} cannot be reached exactly at the VAT rate ${first.taxRate} (net amounts are whole cents); nearest: ${options.join(' or ')}`,
      },
    ],
  };
}
