import { labelsFor, unitName, vatCategoryName, vatKind, vatKindName } from './labels';

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

  it('labels every VAT breakdown row by what it is, the reduced rate apart from the standard one', () => {
    const line = (category: string, rate: string, treatment: string) => ({ vat: { category, rate, treatment } });
    const lines = [line('S', '19', 'standard'), line('S', '7.00', 'reduced'), line('AE', '0', 'reverse_charge'), line('E', '0', 'exempt')];
    const name = (category: string, rate: string, lang: 'de' | 'en', reason?: string) =>
      vatKindName(vatKind(category, rate, lines, reason), lang);
    expect([name('S', '19', 'de'), name('S', '19', 'en')]).toEqual(['Regelsatz', 'Standard rate']);
    expect([name('S', '7', 'de'), name('S', '7', 'en')]).toEqual(['Ermäßigter Satz', 'Reduced rate']);
    expect([name('E', '0', 'de'), name('E', '0', 'en')]).toEqual(['Steuerfrei', 'Exempt']);
    expect([name('AE', '0', 'de'), name('AE', '0', 'en')]).toEqual(['Steuerschuldnerschaft des Leistungsempfängers', 'Reverse charge']);
    expect([name('K', '0', 'de'), name('K', '0', 'en')]).toEqual(['Innergemeinschaftliche Lieferung', 'Intra-community supply']);
    expect([name('G', '0', 'de'), name('G', '0', 'en')]).toEqual(['Ausfuhrlieferung', 'Export']);
    const smallBusiness = 'Gemäß § 19 UStG wird keine Umsatzsteuer berechnet.';
    expect([name('E', '0', 'de', smallBusiness), name('E', '0', 'en', smallBusiness)]).toEqual([
      'Kleinunternehmer (§\u00a019\u00a0UStG)',
      'Small business (§\u00a019\u00a0UStG)',
    ]);
    // without the treatment, the category decides
    expect(vatKindName(vatKind('S', '19', []), 'de')).toBe('Regelsatz');
    expect(vatKindName(vatKind('Z', '0', []), 'en')).toBe('Zero rate');
  });

  it('heads the rate and the amount columns differently', () => {
    for (const lang of ['de', 'en'] as const) expect(labelsFor(lang).vatRate).not.toBe(labelsFor(lang).taxAmount);
    expect([labelsFor('de').vatRate, labelsFor('de').taxAmount]).toEqual(['USt.-Satz', 'USt.-Betrag']);
  });
});
