import { electronicAddressOf } from './api/tax';
import fc from 'fast-check';
import { checkNonEuTaxIdSyntax, checkVatIdSyntax, isNonEuTaxId, normalizeVatId, VIES_COUNTRY_CODES } from './vat-id';

describe('checkVatIdSyntax', () => {
  // Real VAT IDs of well-known companies (public registers / VIES), one or more per country.
  it.each([
    ['DE143454214', 'DE', '143454214'], // SAP SE
    ['DE129274202', 'DE', '129274202'],
    ['ATU13585627', 'AT', 'U13585627'],
    ['ATU12011204', 'AT', 'U12011204'],
    ['FR40303265045', 'FR', '40303265045'],
    ['IT00743110157', 'IT', '00743110157'],
    ['ESA28015865', 'ES', 'A28015865'],
    ['ESB58378431', 'ES', 'B58378431'],
    ['NL004495445B01', 'NL', '004495445B01'],
    ['BE0411905847', 'BE', '0411905847'],
    ['BE1000003682', 'BE', '1000003682'], // new enterprise-number block starting with 1
    ['PL5260250995', 'PL', '5260250995'],
    ['PL5261040828', 'PL', '5261040828'],
    ['EL094259216', 'EL', '094259216'],
    ['XI980780684', 'XI', '980780684'],
  ])('accepts %s', (vatId, countryCode, number) => {
    expect(checkVatIdSyntax(vatId)).toEqual({ ok: true, countryCode, number, normalized: `${countryCode}${number}` });
  });

  it.each([
    ['de 143.454-214', 'DE143454214'],
    [' atu 135 856 27 ', 'ATU13585627'],
    ['FR 40 303 265 045', 'FR40303265045'],
    ['nl004495445b01', 'NL004495445B01'],
    ['BE 0411.905.847', 'BE0411905847'],
  ])('normalises spaces, dots, dashes and case: %s', (input, normalized) => {
    const result = checkVatIdSyntax(input);
    expect(result.ok && result.normalized).toBe(normalized);
  });

  it('adds the implied leading 0 of 9-digit Belgian numbers', () => {
    expect(checkVatIdSyntax('BE411905847')).toMatchObject({ ok: true, number: '0411905847' });
  });

  it.each([
    ['DE136695977', /check digit/], // last digit changed
    ['DE012345678', /format/], // German numbers do not start with 0
    ['DE12345678', /format/], // 8 digits
    ['ATU12011205', /check digit/],
    ['ATX12011204', /format/], // Austria needs the U
    ['AT12011204', /format/],
    ['FR40303265046', /check digit/],
    ['IT00743110158', /check digit/],
    ['IT0074311015', /format/],
    ['ESA28015866', /check digit/],
    ['NL004495446B01', /check digit/],
    ['NL004495445A01', /format/],
    ['BE0411905848', /check digit/],
    ['BE2411905847', /format/], // blocks 0 and 1 only
    ['PL5261040827', /check digit/],
    ['PL526104082', /format/],
  ])('rejects %s', (vatId, reason) => {
    const result = checkVatIdSyntax(vatId);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(reason);
  });

  it.each([
    ['', /empty/],
    ['   ', /empty/],
    ['DE', /country prefix/],
    ['143454214', /country prefix/],
    ['DE143454214!', /country prefix/],
    ['DE1434542141434542', /country prefix/],
    ['GR094259216', /EL/],
    ['GB980780684', /XI/],
    ['CHE123456789', /not the prefix of an EU VAT ID/],
    ['US123456789', /not the prefix of an EU VAT ID/],
    ['EU372000041', /not the prefix of an EU VAT ID/],
  ])('rejects bad input %j', (vatId, reason) => {
    const result = checkVatIdSyntax(vatId);
    expect(result).toEqual({ ok: false, reason: expect.stringMatching(reason) });
  });

  it('rejects non-strings without throwing (payloads are untyped at runtime)', () => {
    expect(checkVatIdSyntax(undefined as unknown as string).ok).toBe(false);
    expect(checkVatIdSyntax(42 as unknown as string).ok).toBe(false);
  });

  it('knows the 27 member states (EL for Greece) and XI, nothing else', () => {
    expect(VIES_COUNTRY_CODES).toHaveLength(28);
    expect(VIES_COUNTRY_CODES).toEqual(expect.arrayContaining(['EL', 'XI', 'DE', 'AT']));
    expect(VIES_COUNTRY_CODES).not.toEqual(expect.arrayContaining(['GR']));
    expect(VIES_COUNTRY_CODES).not.toEqual(expect.arrayContaining(['GB']));
  });

  it('never throws and its normalized form checks the same', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), (input) => {
        const result = checkVatIdSyntax(input);
        if (result.ok) {
          expect(checkVatIdSyntax(result.normalized)).toEqual(result);
          expect(result.normalized).toBe(`${result.countryCode}${result.number}`);
        }
      }),
    );
  });
});

describe('normalizeVatId', () => {
  it('is idempotent', () => {
    fc.assert(fc.property(fc.string(), (s) => normalizeVatId(normalizeVatId(s)) === normalizeVatId(s)));
  });
});

describe('electronicAddressOf', () => {
  it('uses the VAT ID under its country scheme, else the e-mail', () => {
    expect(electronicAddressOf({ vatId: 'DE123456789', email: 'a@b.de' })).toEqual({ scheme: '9930', value: 'DE123456789' });
    expect(electronicAddressOf({ vatId: 'IT00743110157' })).toEqual({ scheme: '0211', value: 'IT00743110157' });
    expect(electronicAddressOf({ vatId: 'SE556703748501', email: 'a@b.se' })).toEqual({ scheme: 'EM', value: 'a@b.se' });
    expect(electronicAddressOf({})).toBeUndefined();
  });
});

describe('checkNonEuTaxIdSyntax (buyers in Norway, Switzerland, the United Kingdom)', () => {
  it.each([
    ['NO 987 654 325 MVA', 'NO', 'NO987654325MVA'],
    ['no987654325', 'NO', 'NO987654325'],
    ['CHE-123.456.788 MWST', 'CH', 'CHE123456788MWST'],
    ['CHE-116.281.710 TVA', 'CH', 'CHE116281710TVA'],
    ['CHE116281710', 'CH', 'CHE116281710'],
    ['GB 980 7806 84', 'GB', 'GB980780684'],
    ['GBGD001', 'GB', 'GBGD001'],
  ])('accepts %j', (input, countryCode, normalized) => {
    expect(isNonEuTaxId(input)).toBe(true);
    expect(checkNonEuTaxIdSyntax(input)).toEqual({ ok: true, countryCode, normalized });
  });

  it.each([
    ['NO987654326MVA', /Norway check digit/],
    ['NO98765432', /format of Norway/],
    ['NO987654325VAT', /format of Norway/],
    ['CHE123456789MWST', /Switzerland check digit/],
    ['CH123456788', /format of Switzerland/],
    ['GB123456789', /United Kingdom check digit/],
    ['GB98078068', /format of United Kingdom/],
    ['US123456789', /not a country whose tax numbers are accepted/],
    ['', /not a country/],
  ])('refuses %j', (input, reason) => {
    expect(checkNonEuTaxIdSyntax(input)).toEqual({ ok: false, reason: expect.stringMatching(reason) });
  });

  it('EU VAT IDs are not taken for non-EU ones', () => {
    for (const v of ['DE143454214', 'XI980780684', 'ATU13585627']) expect(isNonEuTaxId(v)).toBe(false);
  });
});
