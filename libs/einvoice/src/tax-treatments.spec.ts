import { exemptionFor, fatturaPaNatura, getTaxTreatment, isTaxTreatment, listTaxTreatments, taxTreatments } from './tax-treatments';

describe('tax treatments', () => {
  it('maps every treatment onto its VAT category', () => {
    expect(Object.fromEntries(taxTreatments.map((t) => [t.id, t.vatCategory]))).toEqual({
      standard: 'S',
      reduced: 'S',
      reverse_charge: 'AE',
      intra_community: 'K',
      export_outside_eu: 'G',
      exempt: 'E',
      outside_scope: 'O',
    });
  });

  it('has an exemption reason for every category except S', () => {
    for (const t of taxTreatments) {
      if (t.vatCategory === 'S') expect(t.exemption).toBeUndefined();
      else {
        expect(t.exemption?.reason.en).toBeTruthy();
        expect(t.exemption?.reason.de).toBeTruthy();
        expect(t.defaultRate).toBe('0');
      }
    }
  });

  it('lists labels in English and German', () => {
    const en = listTaxTreatments('en');
    const de = listTaxTreatments('de');
    expect(en).toHaveLength(7);
    expect(en.find((t) => t.id === 'intra_community')).toEqual({
      id: 'intra_community',
      label: 'Intra-community supply',
      vat_category: 'K',
      default_rate: '0',
    });
    expect(de.find((t) => t.id === 'intra_community')?.label).toBe('Innergemeinschaftliche Lieferung');
    expect(de.find((t) => t.id === 'standard')).toEqual({
      id: 'standard',
      label: 'Regelsteuersatz',
      vat_category: 'S',
      default_rate: '19',
    });
  });

  it('falls back to English for an unknown locale', () => {
    expect(listTaxTreatments('fr' as never)).toEqual(listTaxTreatments('en'));
  });

  it('looks treatments up by id', () => {
    expect(getTaxTreatment('reverse_charge').vatCategory).toBe('AE');
    expect(isTaxTreatment('exempt')).toBe(true);
    expect(isTaxTreatment('zero')).toBe(false);
    expect(() => getTaxTreatment('zero')).toThrow(/unknown tax treatment/);
  });

  it('gives default exemptions in the document language, overridable per invoice', () => {
    expect(exemptionFor('S', { language: 'de' })).toBeUndefined();
    expect(exemptionFor('AE', { language: 'de' })).toEqual({
      code: 'VATEX-EU-AE',
      reason: 'Steuerschuldnerschaft des Leistungsempfängers (Reverse Charge)',
    });
    expect(exemptionFor('G', { language: 'en' })).toEqual({ code: 'VATEX-EU-G', reason: 'Export outside the EU' });
    expect(exemptionFor('E', { language: 'en' })).toEqual({ reason: 'Exempt from VAT' });
    // an own reason drops the default code (it may not fit the own reason); an own code is kept
    expect(exemptionFor('E', { language: 'de', exemptions: { E: { reason: '§ 4 Nr. 14 UStG' } } })).toEqual({ reason: '§ 4 Nr. 14 UStG' });
    expect(exemptionFor('E', { language: 'de', exemptions: { E: { reason: 'Heilbehandlung', code: 'VATEX-EU-132-1C' } } })).toEqual({
      reason: 'Heilbehandlung',
      code: 'VATEX-EU-132-1C',
    });
  });

  it('maps categories to FatturaPA Natura codes', () => {
    expect(fatturaPaNatura('S')).toBeUndefined();
    expect(fatturaPaNatura('AE')).toBe('N2.1');
    expect(fatturaPaNatura('K')).toBe('N3.2');
    expect(fatturaPaNatura('G')).toBe('N3.1');
    expect(fatturaPaNatura('E')).toBe('N4');
    expect(fatturaPaNatura('O')).toBe('N2.2');
    expect(fatturaPaNatura('Z')).toBe('N3.6');
  });
});
