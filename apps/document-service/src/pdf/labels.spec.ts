import { rateKind, ratesInForce } from '../domain/vat-rates';
import { labelsFor, unitName, vatCategoryName, vatLabel, type VatRowFacts } from './labels';

describe('labels', () => {
  it('has the same keys in German and English', () => {
    expect(Object.keys(labelsFor('de')).sort()).toEqual(Object.keys(labelsFor('en')).sort());
    expect(labelsFor('de').page(2, 5)).toBe('Seite 2 von 5');
    expect(labelsFor('en').draft).toBe('DRAFT');
  });

  it('rejects other languages', () => {
    expect(() => labelsFor('fr' as never)).toThrow(RangeError);
  });

  it('names units in singular and plural', () => {
    expect(unitName('MON', 'de', '1')).toBe('Monat');
    expect(unitName('MON', 'de', '1.00')).toBe('Monat');
    expect(unitName('MON', 'de', '3')).toBe('Monate');
    expect(unitName('MON', 'de', '0.5')).toBe('Monate');
    expect(unitName('DAY', 'en', '11')).toBe('days');
    expect(unitName('HUR', 'de', '12.5')).toBe('Std.');
    expect(unitName('XYZ', 'en', '1')).toBe('XYZ');
  });

  it('states every VAT category', () => {
    for (const cat of ['S', 'Z', 'AE', 'K', 'G', 'E', 'O']) {
      for (const lang of ['de', 'en'] as const) {
        expect(vatCategoryName(cat, lang)).not.toBe(cat);
      }
    }
    expect(vatCategoryName('AE', 'de')).toContain('Steuerschuldnerschaft des Leistungsempfängers');
  });

  it('labels every VAT breakdown row by category, rate, seller country and date, whatever the treatment says', () => {
    const de = { sellerCountry: 'DE', date: '2026-11-20' };
    const name = (category: string, rate: string, lang: 'de' | 'en', more: Partial<VatRowFacts> = {}) =>
      vatLabel({ category, rate, ...de, ...more }, lang);
    expect([name('S', '19', 'de'), name('S', '19', 'en')]).toEqual(['Regelsatz', 'Standard rate']);
    expect([name('S', '7', 'de'), name('S', '7.00', 'en')]).toEqual(['Ermäßigter Satz', 'Reduced rate']);
    // a 7 % position left at the "standard" treatment is still at the reduced rate, and the reverse
    expect(name('S', '7', 'de', { treatment: 'standard' })).toBe('Ermäßigter Satz');
    expect(name('S', '19', 'en', { treatment: 'reduced' })).toBe('Standard rate');
    // the rate in force on the date of supply: 16 % / 5 % in the second half of 2020, not in 2026
    expect([name('S', '16', 'de', { date: '2020-10-01' }), name('S', '5', 'de', { date: '2020-10-01' })]).toEqual([
      'Regelsatz',
      'Ermäßigter Satz',
    ]);
    expect([name('S', '16', 'de', { treatment: 'standard' }), name('S', '19', 'en', { date: '2020-10-01' })]).toEqual([
      'Umsatzsteuer',
      'VAT',
    ]);
    // other countries' rates: Austria 20 / 10 / 13, France 5.5, Finland 25.5 since September 2024
    expect([name('S', '20', 'de', { sellerCountry: 'AT' }), name('S', '10', 'de', { sellerCountry: 'AT' })]).toEqual([
      'Regelsatz',
      'Ermäßigter Satz',
    ]);
    expect(name('S', '5.5', 'en', { sellerCountry: 'FR' })).toBe('Reduced rate');
    // Austria's 19 % is the standard rate of Jungholz and Mittelberg (a regional rate), not a reduced one
    expect(name('S', '19', 'de', { sellerCountry: 'AT' })).toBe('Regelsatz');
    expect(name('S', '13', 'de', { sellerCountry: 'AT' })).toBe('Ermäßigter Satz');
    expect([name('S', '25.5', 'en', { sellerCountry: 'FI' }), name('S', '24', 'en', { sellerCountry: 'FI', date: '2024-08-31' })]).toEqual([
      'Standard rate',
      'Standard rate',
    ]);
    expect(name('S', '8.1', 'de', { sellerCountry: 'ch' })).toBe('Regelsatz');
    // a country or date the table does not know: the treatment decides, else it is VAT and no more
    expect(name('S', '7', 'de', { sellerCountry: 'US', treatment: 'reduced' })).toBe('Ermäßigter Satz');
    expect(name('S', '7', 'en', { sellerCountry: undefined })).toBe('VAT');
    expect(name('S', '19', 'de', { date: undefined, treatment: 'standard' })).toBe('Regelsatz');
    // the 0 % categories by their names
    expect([name('E', '0', 'de'), name('E', '0', 'en')]).toEqual(['Steuerfrei', 'Exempt']);
    expect([name('AE', '0', 'de'), name('AE', '0', 'en')]).toEqual(['Steuerschuldnerschaft des Leistungsempfängers', 'Reverse charge']);
    expect([name('K', '0', 'de'), name('K', '0', 'en')]).toEqual(['Innergemeinschaftliche Lieferung', 'Intra-community supply']);
    expect([name('G', '0', 'de'), name('G', '0', 'en')]).toEqual(['Ausfuhrlieferung', 'Export']);
    expect([name('O', '0', 'de'), name('Z', '0', 'en')]).toEqual(['Nicht steuerbar', 'Zero rate']);
    const smallBusiness = 'Gemäß § 19 UStG wird keine Umsatzsteuer berechnet.';
    expect([name('E', '0', 'de', { exemptionReason: smallBusiness }), name('E', '0', 'en', { exemptionReason: smallBusiness })]).toEqual([
      'Kleinunternehmer (§\u00a019\u00a0UStG)',
      'Small business (§\u00a019\u00a0UStG)',
    ]);
    expect(name('E', '0', 'de', { exemptionReason: 'Steuerfrei nach § 19 Abs. 1 UStG' })).toBe('Kleinunternehmer (§\u00a019\u00a0UStG)');
    expect(name('L', '7', 'en', { sellerCountry: 'ES' })).toBe('IGIC (Canary Islands)');
    expect(name('XX', '0', 'de')).toBe('XX');
  });

  it('knows the standard rates in force', () => {
    expect(ratesInForce('DE', '2026-01-01')).toMatchObject({ standard: '19', reduced: ['7'] });
    expect(ratesInForce('DE', '2020-12-31')?.standard).toBe('16');
    expect(ratesInForce('EL', '2026-01-01')?.standard).toBe('24');
    expect(ratesInForce('DE', '1990-01-01')).toBeUndefined();
    expect(ratesInForce('DE', '20.11.2026')).toBeUndefined();
    expect(ratesInForce('ZZ', '2026-01-01')).toBeUndefined();
    expect(rateKind('abc', 'DE', '2026-01-01')).toBe('unknown');
    expect(rateKind('0', 'FR', '2026-01-01')).toBe('notInForce');
    expect(rateKind('22', 'FR', '2026-01-01')).toBe('notInForce');
  });

  it('heads the rate and the amount columns differently', () => {
    for (const lang of ['de', 'en'] as const) expect(labelsFor(lang).vatRate).not.toBe(labelsFor(lang).taxAmount);
    expect([labelsFor('de').vatRate, labelsFor('de').taxAmount]).toEqual(['USt.-Satz', 'USt.-Betrag']);
  });
});
