import { buyer, seller } from './testing/fixtures';
import { addressLines, cityLine, countryName, footerColumns } from './letter';
import { labelsFor } from './labels';

describe('addressLines', () => {
  it('prints the country in capitals only for foreign recipients', () => {
    expect(addressLines(buyer, 'DE', 'de')).toEqual([
      'Société Générale d’Équipement SARL',
      'Françoise Lefèvre',
      '12 rue de la Pépinière',
      'Bâtiment C',
      '75008 Paris',
      'FRANKREICH',
    ]);
    expect(addressLines(buyer, 'FR', 'en')).not.toContain('FRANCE');
    expect(addressLines(buyer, 'DE', 'en').at(-1)).toBe('FRANCE');
  });

  it('keeps at most six lines for the window', () => {
    const crowded = { ...buyer, address: { ...buyer.address, countryCode: 'IT', subdivision: 'MI' } };
    expect(addressLines(crowded, 'DE', 'de').length).toBeLessThanOrEqual(6);
  });

  it('tolerates unknown country codes', () => {
    expect(countryName('ZZZ', 'de')).toBe('ZZZ');
    expect(cityLine({ line1: 'x', city: 'Milano', postalCode: '20121', subdivision: 'MI', countryCode: 'IT' })).toBe('20121 Milano (MI)');
  });
});

describe('footerColumns', () => {
  it('carries the registration data and bank account', () => {
    const cols = footerColumns(
      { party: seller, payment: { meansCode: '58', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' } },
      labelsFor('de'),
      'de',
    );
    const all = cols.flat().join('\n');
    for (const expected of [
      'USt-IdNr. DE123456789',
      'Steuernummer 215/5432/1234',
      'Amtsgericht Köln',
      'HRB 123456',
      'IBAN DE89 3704 0044 0532 0130 00',
      'BIC COBADEFFXXX',
    ]) {
      expect(all).toContain(expected);
    }
  });

  it('names the managing directors and the register court with its number (§ 35a GmbHG)', () => {
    const party = { ...seller, managingDirectors: ['Erika Mustermann', 'Jürgen Weiß'] };
    for (const [lang, heading, court] of [
      ['de', 'Geschäftsführung:', 'Registergericht: Amtsgericht Köln'],
      ['en', 'Managing directors:', 'Register court: Amtsgericht Köln'],
    ] as const) {
      const lines = footerColumns({ party }, labelsFor(lang), lang).flat();
      expect(lines).toEqual(expect.arrayContaining([heading, 'Erika Mustermann', 'Jürgen Weiß', court, 'HRB 123456']));
    }
    const one = footerColumns({ party: { ...seller, managingDirectors: ['Erika Mustermann'] } }, labelsFor('en'), 'en').flat();
    expect(one).toContain('Managing director:');
  });

  it('leaves out what the company does not have', () => {
    const cols = footerColumns({ party: { name: 'Solo', address: { line1: 'a', city: 'b', countryCode: 'DE' } } }, labelsFor('en'), 'en');
    expect(cols[3]).toEqual([]);
    expect(cols[2]).toEqual([]);
  });
});
