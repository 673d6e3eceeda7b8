/**
 * Postal code syntax of countries whose codes have a fixed format. Hand-written because no installed
 * package carries the rules and the national formats are short and stable. Countries not listed accept
 * any postal code.
 */
const POSTAL_CODE_RULES: Readonly<Record<string, { pattern: RegExp; example: string }>> = {
  DE: { pattern: /^\d{5}$/, example: '10115' },
  AT: { pattern: /^[1-9]\d{3}$/, example: '1010' },
  CH: { pattern: /^[1-9]\d{3}$/, example: '8001' },
  LI: { pattern: /^94(8[5-9]|9[0-8])$/, example: '9490' },
  // France including the overseas departments (97x, 98x).
  FR: { pattern: /^\d{5}$/, example: '75001' },
  IT: { pattern: /^\d{5}$/, example: '00184' },
  // Spain: the first two digits are the province, 01-52.
  ES: { pattern: /^(0[1-9]|[1-4]\d|5[0-2])\d{3}$/, example: '28013' },
  // Netherlands: 4 digits (no leading 0), a space optional, 2 letters; SA, SD and SS are never issued.
  NL: { pattern: /^[1-9]\d{3} ?(?!SA|SD|SS)[A-Z]{2}$/, example: '1012 AB' },
  BE: { pattern: /^[1-9]\d{3}$/, example: '1000' },
  LU: { pattern: /^(L-)?\d{4}$/, example: '1616' },
  DK: { pattern: /^\d{4}$/, example: '1050' },
  PL: { pattern: /^\d{2}-\d{3}$/, example: '00-950' },
  PT: { pattern: /^\d{4}-\d{3}$/, example: '1000-001' },
  CZ: { pattern: /^\d{3} ?\d{2}$/, example: '110 00' },
  SK: { pattern: /^\d{3} ?\d{2}$/, example: '811 01' },
  SE: { pattern: /^\d{3} ?\d{2}$/, example: '114 55' },
  FI: { pattern: /^\d{5}$/, example: '00100' },
  GR: { pattern: /^\d{3} ?\d{2}$/, example: '105 57' },
  HU: { pattern: /^\d{4}$/, example: '1051' },
  SI: { pattern: /^\d{4}$/, example: '1000' },
  HR: { pattern: /^\d{5}$/, example: '10000' },
  RO: { pattern: /^\d{6}$/, example: '010011' },
  BG: { pattern: /^\d{4}$/, example: '1000' },
  EE: { pattern: /^\d{5}$/, example: '10111' },
  LT: { pattern: /^(LT-)?\d{5}$/, example: '01100' },
  LV: { pattern: /^(LV-)?\d{4}$/, example: 'LV-1050' },
  NO: { pattern: /^\d{4}$/, example: '0150' },
  US: { pattern: /^\d{5}(-\d{4})?$/, example: '10001' },
};

/** Countries with a fixed postal code syntax (for tests and documentation). */
export const COUNTRIES_WITH_POSTAL_CODE_RULES: readonly string[] = Object.keys(POSTAL_CODE_RULES);

/** Why `postalCode` is not a postal code of `countryCode`, or undefined when it is (or the country has no fixed syntax). */
export function postalCodeProblem(countryCode: string, postalCode: string): string | undefined {
  const rule = POSTAL_CODE_RULES[countryCode.toUpperCase()];
  if (!rule) return undefined;
  if (rule.pattern.test(postalCode.trim().toUpperCase())) return undefined;
  return `not a valid ${countryCode.toUpperCase()} postal code (e.g. ${rule.example})`;
}
