import { Dec, toDecimal } from '@inv/money';
import { ExportDataError } from './bookings';
import type { ExportSupplierInvoice } from './export-payment';

/** DATEV's Kurs: at most 4 digits before and 6 after the decimal point, never 0. */
const KURS_DECIMALS = 6;
const KURS_MAX = new Dec('9999.999999');

/** How a received invoice in another currency is converted to EUR, and where the rate comes from. */
export interface SupplierRate {
  currency: string;
  /** Units of `currency` per 1 EUR (quantity quotation, as DATEV's Kurs and the ECB reference rates). */
  kurs: Dec;
  source: 'invoice' | 'export_request';
}

/**
 * The rate of a received invoice that is not in EUR (undefined for EUR), from a stated source only, never guessed:
 * 1. the invoice's own EUR figures: BT-6 = EUR with BT-111 (its VAT total in EUR) beside BT-110 (the same VAT in its
 *    currency) give the rate the supplier converted its VAT with (BT-110 / BT-111, 6 decimals; a VAT total of 0 states no rate);
 * 2. else the rate given for that currency with the export request (`exchange_rates`, units per 1 EUR);
 * 3. else ExportDataError naming the invoice, the currency and how to give a rate.
 */
export function supplierRateOf(s: ExportSupplierInvoice, given: Readonly<Record<string, string>> = {}): SupplierRate | undefined {
  const currency = (s.currency ?? 'EUR').toUpperCase();
  if (currency === 'EUR') return undefined;
  const what = `the received invoice ${s.number} (inbound ${s.inboundId}) is in ${currency}`;
  if (s.taxCurrency?.toUpperCase() === 'EUR' && s.totalVat !== undefined && s.totalVatTaxCurrency !== undefined) {
    const vat = toDecimal(s.totalVat);
    const vatEur = toDecimal(s.totalVatTaxCurrency);
    if (!vat.isZero() && !vatEur.isZero() && vat.isPositive() === vatEur.isPositive()) {
      const kurs = vat.dividedBy(vatEur).toDecimalPlaces(KURS_DECIMALS, Dec.ROUND_HALF_UP);
      if (kurs.isZero() || kurs.gt(KURS_MAX))
        throw new ExportDataError(
          `${what}; the rate its EUR VAT amount implies (${vat.toFixed()} ${currency} = ${vatEur.toFixed()} EUR) does not fit DATEV's Kurs (more than 0, at most 9999.999999 per EUR)`,
        );
      return { currency, kurs, source: 'invoice' };
    }
  }
  const rate = given[currency];
  if (rate === undefined)
    throw new ExportDataError(
      `${what} and states no VAT amount in EUR (BT-6/BT-111); no rate is known to convert it. Start the export again with exchange_rates, e.g. {"${currency}": "<${currency} per 1 EUR on the invoice date>"} (the ECB reference rate or the monthly VAT conversion rate of the Federal Ministry of Finance)`,
    );
  return { currency, kurs: toDecimal(rate), source: 'export_request' };
}

/** Basis-Umsatz: a foreign amount in EUR at the rate, to the cent. */
export const toEur = (foreign: Dec, r: SupplierRate): Dec => foreign.dividedBy(r.kurs).toDecimalPlaces(2, Dec.ROUND_HALF_UP);

/** The Kurs column: decimal comma, 2 to 6 decimals (DATEV's pattern for the field), trailing zeros beyond 2 dropped. */
export const kursText = (r: SupplierRate): string => {
  const k = r.kurs.toDecimalPlaces(KURS_DECIMALS);
  return (k.decimalPlaces() < 2 ? k.toFixed(2) : k.toFixed()).replace('.', ',');
};
