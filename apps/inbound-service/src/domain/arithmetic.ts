import Decimal from 'decimal.js';
import type { InboundContent, InboundFinding } from '@inv/contracts';

/**
 * The document's arithmetic re-checked independently of the Schematron rules (which are the authority on
 * validity; this second opinion catches a stylesheet that did not run or a rule set that leaves a sum out):
 * lines against the line total, allowances and charges, VAT per category and rate, and the totals chain.
 * Pure: amounts as the document states them, decimal arithmetic, one finding per broken equation.
 */
export function checkArithmetic(c: InboundContent): InboundFinding[] {
  const out: InboundFinding[] = [];
  const num = (v: string | undefined): Decimal | undefined => {
    if (v === undefined) return undefined;
    try {
      const d = new Decimal(v);
      return d.isFinite() ? d : undefined;
    } catch {
      return undefined;
    }
  };
  const zero = new Decimal(0);
  const sum = (vs: (string | undefined)[]) => vs.reduce((acc, v) => acc.plus(num(v) ?? zero), zero);
  const cents = (d: Decimal) => d.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  const fail = (rule: string, location: string, message: string) =>
    out.push({ rule, severity: 'error', location, message, source: 'arithmetic' });
  const t = c.totals;

  const lineSum = sum(c.lines.map((l) => l.net_amount));
  const lineTotal = num(t.line_total);
  if (lineTotal && !cents(lineSum).equals(cents(lineTotal)))
    fail(
      'INB-ARITH-LINES',
      'totals.line_total',
      `the line net amounts add up to ${cents(lineSum).toFixed(2)}, the document states ${t.line_total} (BT-106)`,
    );

  const allowances = sum(c.allowances_charges.filter((a) => !a.charge).map((a) => a.amount));
  const charges = sum(c.allowances_charges.filter((a) => a.charge).map((a) => a.amount));
  const allowanceTotal = num(t.allowance_total) ?? zero;
  const chargeTotal = num(t.charge_total) ?? zero;
  if (!cents(allowances).equals(cents(allowanceTotal)))
    fail(
      'INB-ARITH-ALLOWANCES',
      'totals.allowance_total',
      `the document level allowances add up to ${cents(allowances).toFixed(2)}, the document states ${t.allowance_total ?? 'none'} (BT-107)`,
    );
  if (!cents(charges).equals(cents(chargeTotal)))
    fail(
      'INB-ARITH-CHARGES',
      'totals.charge_total',
      `the document level charges add up to ${cents(charges).toFixed(2)}, the document states ${t.charge_total ?? 'none'} (BT-108)`,
    );

  const taxExclusive = num(t.tax_exclusive);
  if (lineTotal && taxExclusive) {
    const expected = lineTotal.minus(allowanceTotal).plus(chargeTotal);
    if (!cents(expected).equals(cents(taxExclusive)))
      fail(
        'INB-ARITH-TAX-EXCLUSIVE',
        'totals.tax_exclusive',
        `line total - allowances + charges = ${cents(expected).toFixed(2)}, the document states ${t.tax_exclusive} (BT-109)`,
      );
  }

  const taxTotal = num(t.tax_total) ?? zero;
  const taxInclusive = num(t.tax_inclusive);
  if (taxExclusive && taxInclusive) {
    const expected = taxExclusive.plus(taxTotal);
    if (!cents(expected).equals(cents(taxInclusive)))
      fail(
        'INB-ARITH-TAX-INCLUSIVE',
        'totals.tax_inclusive',
        `total without VAT + VAT = ${cents(expected).toFixed(2)}, the document states ${t.tax_inclusive} (BT-112)`,
      );
  }

  const payable = num(t.payable);
  if (taxInclusive && payable) {
    const expected = taxInclusive.minus(num(t.prepaid) ?? zero).plus(num(t.rounding) ?? zero);
    if (!cents(expected).equals(cents(payable)))
      fail(
        'INB-ARITH-PAYABLE',
        'totals.payable',
        `total with VAT - prepaid + rounding = ${cents(expected).toFixed(2)}, the document states ${t.payable} (BT-115)`,
      );
  }

  if (c.vat_breakdown.length) {
    const vatSum = sum(c.vat_breakdown.map((v) => v.tax_amount));
    if (!cents(vatSum).equals(cents(taxTotal)))
      fail(
        'INB-ARITH-VAT-TOTAL',
        'totals.tax_total',
        `the VAT breakdown adds up to ${cents(vatSum).toFixed(2)}, the document states ${t.tax_total ?? 'none'} (BT-110)`,
      );
  }

  const key = (category: string | undefined, rate: string | undefined) => `${category ?? ''}|${num(rate)?.toString() ?? '0'}`;
  const bases = new Map<string, Decimal>();
  const add = (k: string, d: Decimal) => bases.set(k, (bases.get(k) ?? zero).plus(d));
  for (const l of c.lines) add(key(l.vat_category, l.vat_rate), num(l.net_amount) ?? zero);
  for (const a of c.allowances_charges) add(key(a.vat_category, a.vat_rate), (num(a.amount) ?? zero).times(a.charge ? 1 : -1));
  c.vat_breakdown.forEach((v, i) => {
    const taxable = num(v.taxable_amount) ?? zero;
    const rate = num(v.rate) ?? zero;
    const base = bases.get(key(v.category, v.rate));
    if (base !== undefined && !cents(base).equals(cents(taxable)))
      fail(
        'INB-ARITH-VAT-BASE',
        `vat_breakdown[${i}].taxable_amount`,
        `lines, allowances and charges of category ${v.category ?? '?'} at ${rate.toString()} % add up to ${cents(base).toFixed(2)}, the breakdown states ${v.taxable_amount} (BT-116)`,
      );
    // one cent either way: the rules allow rounding per line or per total
    const expected = cents(taxable.times(rate).dividedBy(100));
    const tax = num(v.tax_amount) ?? zero;
    if (expected.minus(tax).abs().greaterThan('0.01'))
      fail(
        'INB-ARITH-VAT-RATE',
        `vat_breakdown[${i}].tax_amount`,
        `${v.taxable_amount} at ${rate.toString()} % is ${expected.toFixed(2)}, the breakdown states ${v.tax_amount} (BT-117)`,
      );
  });
  return out;
}
