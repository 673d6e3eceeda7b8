import { formatDecimal } from '@inv/money';

/** YYYY-MM-DD -> YYYYMMDD (CII date format 102). */
export function toCiiDate(date: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new RangeError(`date must be YYYY-MM-DD, got ${JSON.stringify(date)}`);
  return date.replace(/-/g, '');
}

/** A quantity or price without superfluous trailing zeros ("2.500" -> "2.5"). */
export function plain(value: string): string {
  return formatDecimal(value);
}

/** A VAT rate for UBL/CII ("19", "7", "0"). */
export function rate(value: string): string {
  return formatDecimal(value);
}

/**
 * Splits a VAT ID like "DE123456789" into country prefix and number (FatturaPA IdPaese / IdCodice). A Swiss UID
 * ("CHE-123.456.789 MWST") keeps its "CHE", which is part of the number, not a country prefix: CH + CHE123456789MWST.
 */
export function splitVatId(vatId: string): { country: string; code: string } {
  const compact = vatId.replace(/[\s.-]/g, '').toUpperCase();
  if (/^CHE\d{9}/.test(compact)) return { country: 'CH', code: compact };
  const m = /^([A-Z]{2})(.+)$/.exec(compact);
  if (!m) throw new RangeError(`VAT ID must start with a country prefix, got ${JSON.stringify(vatId)}`);
  return { country: m[1]!, code: m[2]! };
}

/** Decimal with exactly `places` decimals, half up (FatturaPA and Facturae fix their decimals). */
export function fixed(value: string, places: number): string {
  const s = formatDecimal(value);
  const [int, frac = ''] = s.split('.');
  if (frac.length <= places) return `${int}.${frac.padEnd(places, '0')}`;
  // more digits than allowed: rounding is a business decision the caller must have made already
  throw new RangeError(`${value} has more than ${places} decimals`);
}
