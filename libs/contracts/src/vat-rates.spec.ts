import { checkVatRate, describeVatRates, EU_VAT_RATES, implausibleVatRate, vatRatesInForce } from './vat-rates';

describe('EU VAT rates by date', () => {
  it('Germany: 19 % and 7 %, and 16 % / 5 % only from 2020-07-01 to 2020-12-31', () => {
    expect(describeVatRates(vatRatesInForce('DE', '2026-11-29')!)).toBe('19 % (standard), 7 % (reduced)');
    expect(checkVatRate('DE', '2026-11-29', '16').verdict).toBe('not-in-force');
    expect(checkVatRate('DE', '2020-10-15', '16').verdict).toBe('in-force');
    expect(checkVatRate('DE', '2020-10-15', '5.00').verdict).toBe('in-force');
    expect(checkVatRate('DE', '2020-06-30', '16').verdict).toBe('not-in-force');
    expect(checkVatRate('DE', '2020-07-01', '16').verdict).toBe('in-force');
    expect(checkVatRate('DE', '2020-12-31', '16').verdict).toBe('in-force');
    expect(checkVatRate('DE', '2021-01-01', '16').verdict).toBe('not-in-force');
    expect(checkVatRate('DE', '2020-10-15', '19').verdict).toBe('not-in-force');
    expect(describeVatRates(vatRatesInForce('DE', '2020-10-15')!)).toBe('16 % (standard), 5 % (reduced)');
  });

  it('France and Italy: their own rates, an unknown one is not in force', () => {
    for (const rate of ['20', '10', '5.5', '2.1']) expect(checkVatRate('FR', '2026-03-01', rate).verdict).toBe('in-force');
    expect(checkVatRate('FR', '2026-03-01', '19').verdict).toBe('not-in-force');
    for (const rate of ['22', '10', '5', '4']) expect(checkVatRate('IT', '2026-03-01', rate).verdict).toBe('in-force');
    expect(checkVatRate('IT', '2026-03-01', '21').verdict).toBe('not-in-force');
  });

  it('changes: FI 25.5 % and 13.5 % (2026), SK 23 % (2025), RO 21 % (2025-08-01), EE 24 % (2025-07-01)', () => {
    expect(checkVatRate('FI', '2024-08-31', '25.5').verdict).toBe('not-in-force');
    expect(checkVatRate('FI', '2024-09-01', '25.5').verdict).toBe('in-force');
    expect(checkVatRate('FI', '2025-12-31', '14').verdict).toBe('in-force');
    expect(checkVatRate('FI', '2026-01-01', '14').verdict).toBe('not-in-force');
    expect(checkVatRate('FI', '2026-01-01', '13.5').verdict).toBe('in-force');
    expect(checkVatRate('SK', '2025-01-01', '20').verdict).toBe('not-in-force');
    expect(checkVatRate('RO', '2025-07-31', '19').verdict).toBe('in-force');
    expect(checkVatRate('RO', '2025-08-01', '19').verdict).toBe('not-in-force');
    expect(checkVatRate('EE', '2025-07-01', '24').verdict).toBe('in-force');
    expect(checkVatRate('GR', '2026-01-01', '24').verdict).toBe('in-force');
    expect(checkVatRate('EL', '2026-01-01', '24').verdict).toBe('in-force');
  });

  it('says nothing outside the table: non-EU country, before 2020, not a date, not a rate', () => {
    expect(checkVatRate('CH', '2026-01-01', '8.1').verdict).toBe('unknown');
    expect(checkVatRate('DE', '2019-12-31', '16').verdict).toBe('unknown');
    expect(checkVatRate('DE', '29.11.2026', '16').verdict).toBe('unknown');
    expect(checkVatRate('DE', '2026-11-29', 'abc').verdict).toBe('unknown');
    expect(checkVatRate('DE', '2026-11-29', '-19').verdict).toBe('unknown');
    expect(checkVatRate('__proto__', '2026-11-29', '19').verdict).toBe('unknown');
  });

  it('every member state has one standard rate on every day the table covers', () => {
    expect(Object.keys(EU_VAT_RATES)).toHaveLength(27);
    for (const country of Object.keys(EU_VAT_RATES))
      for (const date of ['2020-01-01', '2020-07-01', '2021-01-01', '2023-06-30', '2024-12-31', '2025-08-01', '2026-01-01', '2030-01-01'])
        expect([country, date, vatRatesInForce(country, date)!.filter((v) => v.kind === 'standard').length]).toEqual([country, date, 1]);
  });

  it('implausibleVatRate names the rates in force, and accepts the buyer country rate of a distance sale', () => {
    expect(implausibleVatRate({ sellerCountry: 'DE', buyerCountry: 'DE', date: '2026-11-29', ratePercent: '16' })).toBe(
      '16 % is not a VAT rate of DE on 2026-11-29; the rates in force then are DE: 19 % (standard), 7 % (reduced)',
    );
    expect(implausibleVatRate({ sellerCountry: 'DE', buyerCountry: 'DE', date: '2020-10-31', ratePercent: '16' })).toBeUndefined();
    expect(implausibleVatRate({ sellerCountry: 'DE', buyerCountry: 'FR', date: '2026-11-29', ratePercent: '20' })).toBeUndefined();
    expect(implausibleVatRate({ sellerCountry: 'DE', buyerCountry: 'FR', date: '2026-11-29', ratePercent: '21' })).toMatch(
      /^21 % is not a VAT rate of DE or FR on 2026-11-29; the rates in force then are DE: 19 % .*; FR: 20 % \(standard\)/,
    );
    expect(implausibleVatRate({ sellerCountry: 'CH', buyerCountry: 'DE', date: '2026-11-29', ratePercent: '8.1' })).toBeUndefined();
    expect(implausibleVatRate({ sellerCountry: 'DE', buyerCountry: 'CH', date: '2026-11-29', ratePercent: '8.1' })).toMatch(/of DE on/);
  });
});
