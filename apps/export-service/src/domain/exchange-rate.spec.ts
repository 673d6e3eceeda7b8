import { ExportDataError } from './bookings';
import type { ExportSupplierInvoice } from './export-payment';
import { kursText, supplierRateOf, toEur } from './exchange-rate';
import { toDecimal } from '@inv/money';

const s = (over: Partial<ExportSupplierInvoice> = {}): ExportSupplierInvoice => ({
  inboundId: 9,
  number: 'INV-9',
  issueDate: '2026-05-04',
  currency: 'DKK',
  totalVat: '186.50',
  vatBreakdown: [{ category: 'S', rate: '25', net: '746.00', vat: '186.50' }],
  ...over,
});

describe('the rate of a received invoice in another currency', () => {
  it('EUR (or no currency) needs none', () => {
    expect(supplierRateOf(s({ currency: 'EUR' }))).toBeUndefined();
    expect(supplierRateOf(s({ currency: undefined }))).toBeUndefined();
  });

  it("takes the invoice's own EUR VAT figures (BT-110 / BT-111) first, then the rate given at export", () => {
    const own = supplierRateOf(s({ taxCurrency: 'EUR', totalVatTaxCurrency: '25.00' }), { DKK: '7.5' })!;
    expect([own.source, kursText(own), toEur(toDecimal('932.50'), own).toFixed(2)]).toEqual(['invoice', '7,46', '125.00']);
    const given = supplierRateOf(s(), { DKK: '7.4604' })!;
    expect([given.source, kursText(given), toEur(toDecimal('-932.50'), given).toFixed(2)]).toEqual(['export_request', '7,4604', '-124.99']);
    // DATEV's Kurs has 2 to 6 decimals: 7.5 is written 7,50, 11 as 11,00
    expect(['7.5', '11', '11.725'].map((k) => kursText({ ...given, kurs: toDecimal(k) }))).toEqual(['7,50', '11,00', '11,725']);
    // a VAT total of 0 (reverse charge) states no rate; another tax currency neither
    expect(supplierRateOf(s({ totalVat: '0.00', taxCurrency: 'EUR', totalVatTaxCurrency: '0.00' }), { DKK: '7.46' })!.source).toBe(
      'export_request',
    );
    expect(supplierRateOf(s({ taxCurrency: 'SEK', totalVatTaxCurrency: '270.00' }), { DKK: '7.46' })!.source).toBe('export_request');
  });

  it('without a stated rate it refuses, naming the invoice, the currency and the way out', () => {
    expect(() => supplierRateOf(s({ currency: 'NOK' }), { DKK: '7.46' })).toThrow(ExportDataError);
    expect(() => supplierRateOf(s({ currency: 'NOK' }))).toThrow(/INV-9 \(inbound 9\) is in NOK .*exchange_rates, e\.g\. \{"NOK"/);
    // an implied rate DATEV's Kurs cannot hold (tiny EUR VAT) is refused, not written
    expect(() => supplierRateOf(s({ taxCurrency: 'EUR', totalVatTaxCurrency: '0.01' }))).toThrow(/does not fit DATEV's Kurs/);
  });
});
