import { COUNTRIES_WITH_POSTAL_CODE_RULES, postalCodeProblem } from './postal-codes';

describe('postalCodeProblem', () => {
  it.each([
    ['DE', '10115'],
    ['DE', '01067'],
    ['AT', '1010'],
    ['FR', '75001'],
    ['FR', '97400'],
    ['IT', '00184'],
    ['ES', '28013'],
    ['ES', '52001'],
    ['NL', '1012 AB'],
    ['NL', '1012ab'],
    ['BE', '1000'],
    ['PL', '00-950'],
    ['PT', '1000-001'],
    ['SE', '114 55'],
    ['CZ', '11000'],
  ])('accepts %s %s', (country, code) => {
    expect(postalCodeProblem(country, code)).toBeUndefined();
  });

  it.each([
    ['DE', '1011'],
    ['DE', '101155'],
    ['DE', 'ABCDE'],
    ['AT', '0101'],
    ['AT', '10100'],
    ['FR', '7500'],
    ['IT', '0018A'],
    ['ES', '53001'],
    ['ES', '00123'],
    ['NL', '0123 AB'],
    ['NL', '1012 SA'],
    ['NL', '1012'],
    ['PL', '00950'],
    ['PT', '1000'],
  ])('rejects %s %s and names an example', (country, code) => {
    expect(postalCodeProblem(country, code)).toMatch(new RegExp(`not a valid ${country} postal code \\(e\\.g\\. .+\\)`));
  });

  it('accepts anything for countries without a fixed syntax (GB, IE)', () => {
    expect(postalCodeProblem('GB', 'SW1A 1AA')).toBeUndefined();
    expect(postalCodeProblem('IE', 'D02 X285')).toBeUndefined();
  });

  it('covers at least DE, AT, FR, IT, ES and NL, and each example passes its own rule', () => {
    expect(COUNTRIES_WITH_POSTAL_CODE_RULES).toEqual(expect.arrayContaining(['DE', 'AT', 'FR', 'IT', 'ES', 'NL']));
    for (const country of COUNTRIES_WITH_POSTAL_CODE_RULES) {
      const example = /e\.g\. (.+)\)$/.exec(postalCodeProblem(country, '!') ?? '')?.[1];
      expect(example && postalCodeProblem(country, example)).toBeUndefined();
    }
  });
});
