import { labelsFor, unitName, vatCategoryName, vatCategoryShortName } from './labels';

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
        expect(vatCategoryShortName(cat, lang)).not.toBe(cat);
      }
    }
    expect(vatCategoryName('AE', 'de')).toContain('Steuerschuldnerschaft des Leistungsempfängers');
  });
});
