import { Decimal } from 'decimal.js';

/**
 * A private Decimal constructor: 40 significant digits and ROUND_HALF_UP (half away from zero). A clone
 * keeps our settings out of decimal.js's global default, which other code in the same process may use.
 * 40 digits is far beyond any invoice amount (quantity 4 decimals x price 4 decimals x 200 lines), so
 * intermediate results are exact and only the explicit rounding steps below ever lose digits.
 */
export const Dec = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -40, toExpPos: 40 });
export type Dec = Decimal;

/** What the money functions accept: decimal strings ("12.50"), finite numbers or Decimal instances. */
export type DecimalInput = string | number | Decimal;

const DECIMAL_PATTERN = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/**
 * Parses a decimal. Strings must be plain decimal notation (no exponent, hex, blanks or thousands
 * separators), numbers must be finite; anything else throws a RangeError naming `field`.
 */
export function toDecimal(value: DecimalInput, field = 'value'): Decimal {
  if (value instanceof Decimal) {
    if (!value.isFinite()) throw new RangeError(`${field} must be a finite decimal`);
    // Decimals are immutable: one of ours is used as it is (copying it, rounding included, was a third of the
    // time of computing an invoice's totals); one made by another constructor is copied into our precision.
    return value.constructor === Dec ? value : new Dec(value);
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`${field} must be a finite number, got ${value}`);
    // String(number) is the shortest round-trip form, so 0.1 becomes exactly "0.1", not 0.1000000000000000055...
    return new Dec(String(value));
  }
  if (typeof value !== 'string' || !DECIMAL_PATTERN.test(value)) {
    throw new RangeError(`${field} must be a decimal string like "12.50", got ${JSON.stringify(value)}`);
  }
  return new Dec(value);
}

/**
 * EN 16931 rounding of amounts: 2 decimals, half away from zero. This is what the CEN validation
 * artefacts compute (`round(abs(x) * 100) div 100`, XPath round() on a non-negative value is half up).
 */
export function roundAmount(value: DecimalInput): Decimal {
  return toDecimal(value).toDecimalPlaces(2, Dec.ROUND_HALF_UP);
}

/** An amount as a storage / XML string with exactly 2 decimals ("1234.50"); rounds half up first. */
export function formatAmount(value: DecimalInput): string {
  const rounded = roundAmount(value);
  // decimal.js keeps the sign of zero ("-0.00"); an amount of minus zero is just zero.
  return rounded.isZero() ? '0.00' : rounded.toFixed(2);
}

/** A decimal as a plain string without exponent and without trailing zeros ("0.125", "19"). */
export function formatDecimal(value: DecimalInput): string {
  const d = toDecimal(value);
  return d.isZero() ? '0' : d.toFixed();
}

/**
 * A decimal string for storage: unchanged digits, never rounded. Use for quantities and prices,
 * whose precision (up to 4 decimals) must survive a round trip through the database.
 */
export function toStorageString(value: DecimalInput): string {
  return formatDecimal(value);
}

/**
 * A decimal as a JSON number for API responses. JSON numbers are parsed as binary doubles by most
 * clients, so only amounts within Number.MAX_SAFE_INTEGER cents are accepted (about 90 trillion);
 * beyond that the value would not survive the round trip and a RangeError is thrown.
 */
export function toJsonNumber(value: DecimalInput): number {
  const d = toDecimal(value);
  const n = d.toNumber();
  if (!new Dec(String(n)).equals(d)) {
    throw new RangeError(`${d.toFixed()} cannot be represented exactly as a JSON number`);
  }
  return n;
}

/** Exact sum of decimals (0 for an empty list). */
export function sumDecimals(values: readonly DecimalInput[]): Decimal {
  let total = new Dec(0);
  for (const v of values) total = total.plus(toDecimal(v));
  return total;
}
