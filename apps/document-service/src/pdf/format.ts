/**
 * Locale formatting of decimal strings for the PDF. Amounts arrive as exact decimal strings and are
 * formatted with Intl.NumberFormat's string input (ES2023), which keeps every digit: no binary float
 * ever touches an amount.
 */
export type PdfLanguage = 'de' | 'en';

/** de -> German (1.234,56 €, 05.01.2026); en -> British English (€1,234.56, 5 Jan 2026). */
const LOCALE: Record<PdfLanguage, string> = { de: 'de-DE', en: 'en-GB' };

const DECIMAL = /^[+-]?\d+(\.\d+)?$/;

export function checkDecimal(value: string, what: string): `${number}` {
  if (typeof value !== 'string' || !DECIMAL.test(value)) {
    throw new RangeError(`${what} must be a decimal string such as "1234.50", got ${JSON.stringify(value)}`);
  }
  return value as `${number}`;
}

// Intl formatters are expensive to build (~0.1 ms each), so every combination is built once.
const cache = new Map<string, Intl.NumberFormat>();
function numberFormat(lang: PdfLanguage, key: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const id = `${lang}|${key}`;
  let f = cache.get(id);
  if (!f) {
    f = new Intl.NumberFormat(LOCALE[lang], options);
    cache.set(id, f);
  }
  return f;
}

/** "1234.5" -> "1.234,50 €" (de) / "€1,234.50" (en). Negative amounts keep their sign. */
export function formatMoney(amount: string, lang: PdfLanguage, currency = 'EUR'): string {
  const value = checkDecimal(amount, 'amount');
  return numberFormat(lang, `money|${currency}`, { style: 'currency', currency }).format(value);
}

/** An amount without the currency symbol, 2 decimals: "1.234,50" / "1,234.50" (table columns). */
export function formatAmount(amount: string, lang: PdfLanguage): string {
  const value = checkDecimal(amount, 'amount');
  return numberFormat(lang, 'amount', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
}

/** Unit prices: at least 2, at most 4 decimals ("0,125" -> "0,125"; "12" -> "12,00"). */
export function formatUnitPrice(amount: string, lang: PdfLanguage): string {
  const value = checkDecimal(amount, 'unit price');
  return numberFormat(lang, 'price', { minimumFractionDigits: 2, maximumFractionDigits: 4 }).format(value);
}

/** Quantities as given, up to 4 decimals, no padding ("1.5" -> "1,5"; "10" -> "10"). */
export function formatQuantity(quantity: string, lang: PdfLanguage): string {
  const value = checkDecimal(quantity, 'quantity');
  return numberFormat(lang, 'qty', { maximumFractionDigits: 4 }).format(value);
}

/** VAT rates: "19" -> "19 %" (de) / "19%" (en); "7.5" -> "7,5 %". */
export function formatPercent(rate: string, lang: PdfLanguage): string {
  const value = checkDecimal(rate, 'rate');
  const n = numberFormat(lang, 'pct', { maximumFractionDigits: 2 }).format(value);
  return lang === 'de' ? `${n}\u00a0%` : `${n}%`;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTHS_EN = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * "2026-01-05" -> "05.01.2026" (de, DIN 5008 numeric) / "5 Jan 2026" (en): one format per language on every
 * date of a document (info block, tables, service periods, payment text), short enough that a period fits
 * one line. Written by hand rather than with Intl.DateTimeFormat because the input is a calendar date
 * without a time zone and going through Date would shift it for callers in negative UTC offsets.
 */
export function formatDate(isoDate: string, lang: PdfLanguage): string {
  const m = ISO_DATE.exec(isoDate ?? '');
  const month = m ? Number(m[2]) : 0;
  const day = m ? Number(m[3]) : 0;
  if (!m || month < 1 || month > 12 || day < 1 || day > 31) {
    throw new RangeError(`date must be YYYY-MM-DD, got ${JSON.stringify(isoDate)}`);
  }
  if (lang === 'de') return `${m[3]}.${m[2]}.${m[1]}`;
  return `${day} ${MONTHS_EN[month - 1]} ${m[1]}`;
}

/** A period "05.01.2026 – 31.01.2026" / "5 Jan 2026 – 31 Jan 2026". */
export function formatPeriod(period: { start: string; end: string }, lang: PdfLanguage): string {
  return `${formatDate(period.start, lang)} \u2013 ${formatDate(period.end, lang)}`;
}

/** IBAN in groups of four for reading (DIN 5008): "DE89 3704 0044 0532 0130 00". */
export function formatIban(iban: string): string {
  return iban
    .replace(/\s+/g, '')
    .toUpperCase()
    .replace(/(.{4})(?=.)/g, '$1 ');
}

/** True if a decimal string is zero ("0", "0.00", "-0.0"). */
export function isZero(amount: string): boolean {
  return /^[+-]?0+(\.0+)?$/.test(amount);
}
