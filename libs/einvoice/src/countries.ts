/**
 * ISO 3166-1 alpha-2 -> alpha-3 for Facturae, whose CountryType is alpha-3. Hand-written because no
 * installed package carries the table; limited to the EU/EEA and our main trading partners.
 */
const ALPHA3: Record<string, string> = {
  AT: 'AUT',
  BE: 'BEL',
  BG: 'BGR',
  HR: 'HRV',
  CY: 'CYP',
  CZ: 'CZE',
  DK: 'DNK',
  EE: 'EST',
  FI: 'FIN',
  FR: 'FRA',
  DE: 'DEU',
  GR: 'GRC',
  HU: 'HUN',
  IE: 'IRL',
  IT: 'ITA',
  LV: 'LVA',
  LT: 'LTU',
  LU: 'LUX',
  MT: 'MLT',
  NL: 'NLD',
  PL: 'POL',
  PT: 'PRT',
  RO: 'ROU',
  SK: 'SVK',
  SI: 'SVN',
  ES: 'ESP',
  SE: 'SWE',
  IS: 'ISL',
  LI: 'LIE',
  NO: 'NOR',
  CH: 'CHE',
  GB: 'GBR',
  US: 'USA',
  CA: 'CAN',
  MX: 'MEX',
  BR: 'BRA',
  AR: 'ARG',
  CN: 'CHN',
  JP: 'JPN',
  KR: 'KOR',
  IN: 'IND',
  AU: 'AUS',
  NZ: 'NZL',
  TR: 'TUR',
  UA: 'UKR',
  RS: 'SRB',
  BA: 'BIH',
  ME: 'MNE',
  MK: 'MKD',
  AL: 'ALB',
  MD: 'MDA',
  AD: 'AND',
  MC: 'MCO',
  SM: 'SMR',
  VA: 'VAT',
  IL: 'ISR',
  AE: 'ARE',
  SA: 'SAU',
  ZA: 'ZAF',
  SG: 'SGP',
  HK: 'HKG',
  TW: 'TWN',
  MA: 'MAR',
  TN: 'TUN',
  EG: 'EGY',
};

export function toAlpha3(alpha2: string): string {
  const a3 = ALPHA3[alpha2.toUpperCase()];
  if (!a3) throw new RangeError(`no ISO alpha-3 code known for country ${JSON.stringify(alpha2)}`);
  return a3;
}

export function hasAlpha3(alpha2: string): boolean {
  return ALPHA3[alpha2.toUpperCase()] !== undefined;
}

const EU = new Set([
  'AT',
  'BE',
  'BG',
  'HR',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'GR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
]);

export function isEuCountry(alpha2: string): boolean {
  return EU.has(alpha2.toUpperCase());
}
