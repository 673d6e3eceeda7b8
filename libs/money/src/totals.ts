import type { Decimal } from 'decimal.js';
import { Dec, type DecimalInput, formatAmount, formatDecimal, roundAmount, toDecimal, toJsonNumber } from './decimal';

export type DiscountType = 'PERCENTAGE' | 'FIXED_AMOUNT';

export interface LineDiscountInput {
  /** PERCENTAGE: `value` percent of the line gross; FIXED_AMOUNT: `value` currency units. */
  type: DiscountType;
  value: DecimalInput;
}

export interface TotalsLineInput {
  quantity: DecimalInput;
  /** Net price per unit (BT-146); must not be negative (BR-27). */
  unitPrice: DecimalInput;
  discount?: LineDiscountInput;
  /** VAT category code (UNCL5305: S, Z, AE, K, G, E, O) and rate in percent ("19", "7", "0"). */
  vat: { category: string; rate: DecimalInput };
}

export interface TotalsInput {
  lines: readonly TotalsLineInput[];
  /** BT-113, amounts already paid; defaults to 0. */
  prepaidAmount?: DecimalInput;
}

export interface LineTotals {
  /** quantity x unit price, exact (not rounded; may have up to 8 decimals). */
  gross: string;
  /** quantity x unit price rounded to 2 decimals; use as the allowance base amount (BT-137). */
  grossRounded: string;
  /** Line allowance amount (BT-136), 2 decimals; "0.00" without a discount. */
  allowance: string;
  /** Discount percentage (BT-138) as given, only for PERCENTAGE discounts. */
  allowancePercent?: string;
  /** Invoice line net amount (BT-131) = round2(gross - allowance). */
  net: string;
}

export interface VatBreakdownEntry {
  category: string; // BT-118
  /** Rate in percent, normalised ("19", "7", "0"). */
  rate: string; // BT-119
  taxableAmount: string; // BT-116
  taxAmount: string; // BT-117
}

/** The result of {@link computeTotals}; every amount is a decimal string with 2 decimals. */
export interface InvoiceTotals {
  lines: LineTotals[];
  /** One entry per distinct (category, rate), in order of first appearance in the lines. */
  vatBreakdown: VatBreakdownEntry[];
  lineNetTotal: string; // BT-106
  allowanceTotal: string; // BT-107 (document-level allowances; always 0.00, we have none)
  chargeTotal: string; // BT-108 (document-level charges; always 0.00)
  taxExclusiveTotal: string; // BT-109
  vatTotal: string; // BT-110
  taxInclusiveTotal: string; // BT-112
  prepaidAmount: string; // BT-113
  amountDue: string; // BT-115
}

const HUNDRED = new Dec(100);

function lineAllowance(gross: Decimal, discount: LineDiscountInput | undefined, where: string): Decimal {
  if (!discount) return new Dec(0);
  const value = toDecimal(discount.value, `${where}.discount.value`);
  if (value.isNegative()) throw new RangeError(`${where}.discount.value must not be negative`);
  if (discount.type === 'PERCENTAGE') {
    if (value.greaterThan(HUNDRED)) throw new RangeError(`${where}.discount.value must be at most 100 percent`);
    return roundAmount(gross.times(value).dividedBy(HUNDRED));
  }
  if (discount.type === 'FIXED_AMOUNT') {
    const amount = roundAmount(value);
    if (amount.greaterThan(roundAmount(gross.abs()))) {
      throw new RangeError(`${where}.discount.value ${formatAmount(amount)} exceeds the line amount`);
    }
    return gross.isNegative() ? amount.negated() : amount;
  }
  throw new RangeError(`${where}.discount.type must be PERCENTAGE or FIXED_AMOUNT`);
}

/**
 * Derives every EN 16931 total from the lines so that the arithmetic rules hold exactly:
 * BT-131 = round2(qty x price - allowance); BT-116 = sum of BT-131 per (category, rate);
 * BT-117 = round2(BT-116 x rate / 100) per category (BR-CO-17, BR-S-09, ...); BT-106 = sum BT-131
 * (BR-CO-10); BT-109 = BT-106 (BR-CO-13, no document allowances/charges); BT-110 = sum BT-117
 * (BR-CO-14); BT-112 = BT-109 + BT-110 (BR-CO-15); BT-115 = BT-112 - BT-113 (BR-CO-16).
 * Throws RangeError on malformed numbers, negative prices, discounts above 100 % or above the line amount.
 */
export function computeTotals(input: TotalsInput): InvoiceTotals {
  const lines: LineTotals[] = [];
  const groups = new Map<string, { category: string; rate: Decimal; taxable: Decimal }>();
  let lineNetTotal = new Dec(0);

  input.lines.forEach((line, i) => {
    const where = `lines[${i}]`;
    const quantity = toDecimal(line.quantity, `${where}.quantity`);
    const price = toDecimal(line.unitPrice, `${where}.unitPrice`);
    if (price.isNegative()) throw new RangeError(`${where}.unitPrice must not be negative (BR-27)`);
    const rate = toDecimal(line.vat.rate, `${where}.vat.rate`);
    if (rate.isNegative()) throw new RangeError(`${where}.vat.rate must not be negative`);
    if (!line.vat.category) throw new RangeError(`${where}.vat.category is required`);

    const gross = quantity.times(price);
    const allowance = lineAllowance(gross, line.discount, where);
    const net = roundAmount(gross.minus(allowance));
    lineNetTotal = lineNetTotal.plus(net);
    lines.push({
      gross: formatDecimal(gross),
      grossRounded: formatAmount(gross),
      allowance: formatAmount(allowance),
      ...(line.discount?.type === 'PERCENTAGE' ? { allowancePercent: formatDecimal(line.discount.value) } : {}),
      net: formatAmount(net),
    });

    const key = `${line.vat.category}|${formatDecimal(rate)}`;
    const group = groups.get(key);
    if (group) group.taxable = group.taxable.plus(net);
    else groups.set(key, { category: line.vat.category, rate, taxable: net });
  });

  let vatTotal = new Dec(0);
  const vatBreakdown: VatBreakdownEntry[] = [];
  for (const g of groups.values()) {
    const tax = roundAmount(g.taxable.times(g.rate).dividedBy(HUNDRED));
    vatTotal = vatTotal.plus(tax);
    vatBreakdown.push({
      category: g.category,
      rate: formatDecimal(g.rate),
      taxableAmount: formatAmount(g.taxable),
      taxAmount: formatAmount(tax),
    });
  }

  const prepaid = roundAmount(input.prepaidAmount ?? 0);
  const taxExclusive = lineNetTotal;
  const taxInclusive = taxExclusive.plus(vatTotal);
  return {
    lines,
    vatBreakdown,
    lineNetTotal: formatAmount(lineNetTotal),
    allowanceTotal: '0.00',
    chargeTotal: '0.00',
    taxExclusiveTotal: formatAmount(taxExclusive),
    vatTotal: formatAmount(vatTotal),
    taxInclusiveTotal: formatAmount(taxInclusive),
    prepaidAmount: formatAmount(prepaid),
    amountDue: formatAmount(taxInclusive.minus(prepaid)),
  };
}

/** {@link InvoiceTotals} with every decimal string as a JSON number (for API responses). */
export type InvoiceTotalsJson = {
  lines: { gross: number; grossRounded: number; allowance: number; allowancePercent?: number; net: number }[];
  vatBreakdown: { category: string; rate: number; taxableAmount: number; taxAmount: number }[];
} & { [K in Exclude<keyof InvoiceTotals, 'lines' | 'vatBreakdown'>]: number };

/**
 * Converts totals for a JSON response. Amounts are 2-decimal values and convert exactly; a line gross
 * with more digits than a double holds throws (see toJsonNumber) rather than silently changing.
 */
export function totalsToJson(t: InvoiceTotals): InvoiceTotalsJson {
  return {
    lines: t.lines.map((l) => ({
      gross: toJsonNumber(l.gross),
      grossRounded: toJsonNumber(l.grossRounded),
      allowance: toJsonNumber(l.allowance),
      ...(l.allowancePercent !== undefined ? { allowancePercent: toJsonNumber(l.allowancePercent) } : {}),
      net: toJsonNumber(l.net),
    })),
    vatBreakdown: t.vatBreakdown.map((v) => ({
      category: v.category,
      rate: toJsonNumber(v.rate),
      taxableAmount: toJsonNumber(v.taxableAmount),
      taxAmount: toJsonNumber(v.taxAmount),
    })),
    lineNetTotal: toJsonNumber(t.lineNetTotal),
    allowanceTotal: toJsonNumber(t.allowanceTotal),
    chargeTotal: toJsonNumber(t.chargeTotal),
    taxExclusiveTotal: toJsonNumber(t.taxExclusiveTotal),
    vatTotal: toJsonNumber(t.vatTotal),
    taxInclusiveTotal: toJsonNumber(t.taxInclusiveTotal),
    prepaidAmount: toJsonNumber(t.prepaidAmount),
    amountDue: toJsonNumber(t.amountDue),
  };
}
