import {
  austria,
  belgium,
  bulgaria,
  checkVAT,
  croatia,
  cyprus,
  czechRepublic,
  denmark,
  estonia,
  finland,
  france,
  germany,
  greece,
  hungary,
  ireland,
  italy,
  latvia,
  lithuania,
  luxembourg,
  malta,
  netherlands,
  norway,
  poland,
  portugal,
  romania,
  slovakiaRepublic,
  slovenia,
  spain,
  sweden,
  switzerland,
  unitedKingdom,
  type Country,
} from 'jsvat';

/**
 * Syntax check of EU VAT identification numbers (the ones VIES knows), built on jsvat.
 *
 * jsvat (2.5.x) covers all 27 member states but (a) also knows non-EU countries (CH, NO, GB, RU,
 * BR, ...) that VIES does not answer for, (b) has no Northern Ireland (XI) entry and (c) still
 * rejects Belgian enterprise numbers starting with 1, issued since 2023 (jsvat issue #129 / PR #130,
 * open). We therefore pass jsvat an explicit EU-only country list and extend it through jsvat's own
 * `Country` extension point for XI and for the new Belgian block, instead of re-implementing checks.
 */

export type VatIdSyntaxResult =
  | { ok: true; countryCode: string; number: string; normalized: string }
  | { ok: false; reason: string; checkDigitFailed?: undefined }
  /** The shape of the member state's numbers, but the check digits do not add up. */
  | { ok: false; reason: string; checkDigitFailed: true; normalized: string };

/** XI numbers are UK VAT numbers (same format and check digits) with the Northern Ireland prefix. */
const northernIreland: Country = {
  name: 'Northern Ireland',
  codes: ['XI'],
  calcFn: (vat) => unitedKingdom.calcFn(vat),
  rules: {
    multipliers: unitedKingdom.rules.multipliers,
    regex: [/^(XI)(\d{9})$/, /^(XI)(\d{12})$/, /^(XI)(GD\d{3})$/, /^(XI)(HA\d{3})$/],
  },
};

/**
 * Belgian enterprise numbers are 10 digits, first digit 0 or 1, the last two digits being
 * 97 - (first eight mod 97). jsvat only knows the 0 block; numbers of the 1 block get the same
 * mod-97 check here, numbers of the 0 block keep jsvat's own check.
 */
const belgiumWithNewBlock: Country = {
  ...belgium,
  calcFn: (vat) => {
    if (vat.length === 10 && vat.startsWith('1')) {
      return 97 - (Number(vat.slice(0, 8)) % 97) === Number(vat.slice(8, 10));
    }
    return belgium.calcFn(vat);
  },
  rules: { ...belgium.rules, regex: [/^(BE)([01]?\d{9})$/] },
};

/** VIES country prefix -> jsvat country. Greece is EL in VIES (jsvat accepts EL for Greece). */
const EU_COUNTRIES: Readonly<Record<string, Country>> = {
  AT: austria,
  BE: belgiumWithNewBlock,
  BG: bulgaria,
  CY: cyprus,
  CZ: czechRepublic,
  DE: germany,
  DK: denmark,
  EE: estonia,
  EL: greece,
  ES: spain,
  FI: finland,
  FR: france,
  HR: croatia,
  HU: hungary,
  IE: ireland,
  IT: italy,
  LT: lithuania,
  LU: luxembourg,
  LV: latvia,
  MT: malta,
  NL: netherlands,
  PL: poland,
  PT: portugal,
  RO: romania,
  SE: sweden,
  SI: slovenia,
  SK: slovakiaRepublic,
  XI: northernIreland,
};

/** The VIES country prefixes this check accepts (27 member states with EL for Greece, plus XI). */
export const VIES_COUNTRY_CODES: readonly string[] = Object.keys(EU_COUNTRIES);

const SEPARATORS = /[\s.\-/]+/g;

/** Upper-cases and strips spaces, dots, dashes and slashes ("de 123.456-789" -> "DE123456789"). */
export function normalizeVatId(vatId: string): string {
  return vatId.toUpperCase().replace(SEPARATORS, '');
}

export function checkVatIdSyntax(vatId: string): VatIdSyntaxResult {
  if (typeof vatId !== 'string' || vatId.trim() === '') {
    return { ok: false, reason: 'VAT ID is empty' };
  }
  const cleaned = normalizeVatId(vatId);
  if (!/^[A-Z]{2}[0-9A-Z+*]{2,13}$/.test(cleaned)) {
    return { ok: false, reason: 'VAT ID must be a two-letter country prefix followed by 2 to 13 letters or digits' };
  }
  const countryCode = cleaned.slice(0, 2);
  const country = EU_COUNTRIES[countryCode];
  if (!country) {
    return { ok: false, reason: unknownPrefixReason(countryCode) };
  }
  const result = checkVAT(cleaned, [country]);
  if (!result.isValidFormat) {
    return { ok: false, reason: `VAT ID does not have the format of ${country.name} VAT numbers` };
  }
  let number = cleaned.slice(2);
  // Belgian numbers written with 9 digits have an implied leading 0; VIES expects all 10.
  if (countryCode === 'BE' && number.length === 9) number = `0${number}`;
  if (!result.isValid) {
    return {
      ok: false,
      reason: `VAT ID fails the ${country.name} check digit test`,
      checkDigitFailed: true,
      normalized: `${countryCode}${number}`,
    };
  }
  return { ok: true, countryCode, number, normalized: `${countryCode}${number}` };
}

function unknownPrefixReason(prefix: string): string {
  if (prefix === 'GR') return 'Greek VAT IDs use the prefix EL, not GR';
  if (prefix === 'GB') return 'GB VAT IDs are not EU VAT IDs (use XI for Northern Ireland)';
  return `${prefix} is not the prefix of an EU VAT ID`;
}

/**
 * Tax numbers of buyers outside the EU that invoices carry as buyer VAT identifier (BT-48), checked with jsvat's own
 * rules for these countries: Norway `NO` + 9-digit organisation number (mod 11) + optional `MVA`, Switzerland `CHE` +
 * 9-digit UID (mod 11) + optional `MWST`/`TVA`/`IVA`, United Kingdom `GB` + 9 or 12 digits (mod 97) or `GBGD`/`GBHA`
 * + 3 digits. VIES does not answer for them: they are never sent to VIES (their VAT status stays `not_checked`).
 */
export const NON_EU_TAX_ID_COUNTRIES: readonly string[] = ['NO', 'CH', 'GB'];
const NON_EU: Readonly<Record<string, Country>> = { NO: norway, CH: switzerland, GB: unitedKingdom };

export type NonEuTaxIdResult = { ok: true; countryCode: string; normalized: string } | { ok: false; reason: string };

/** Whether `vatId` (normalised) is one of the non-EU tax numbers above, by its prefix. */
export const isNonEuTaxId = (vatId: string): boolean => NON_EU_TAX_ID_COUNTRIES.includes(normalizeVatId(vatId).slice(0, 2));

export function checkNonEuTaxIdSyntax(vatId: string): NonEuTaxIdResult {
  const cleaned = normalizeVatId(vatId);
  const countryCode = cleaned.slice(0, 2);
  const country = NON_EU[countryCode];
  if (!country) return { ok: false, reason: `${countryCode} is not a country whose tax numbers are accepted (NO, CH, GB)` };
  // jsvat's UK rule also takes the number without its prefix; the prefix is what makes it a BT-48 (BR-CO-09)
  const shapes: Record<string, RegExp> = {
    NO: /^NO\d{9}(MVA)?$/,
    CH: /^CHE\d{9}(MWST|TVA|IVA)?$/,
    GB: /^GB(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/,
  };
  const examples: Record<string, string> = { NO: 'NO987654325MVA', CH: 'CHE-123.456.788 MWST', GB: 'GB980780684' };
  if (!shapes[countryCode]!.test(cleaned))
    return { ok: false, reason: `does not have the format of ${country.name} tax numbers (e.g. ${examples[countryCode]})` };
  const result = checkVAT(cleaned, [country]);
  if (!result.isValid) return { ok: false, reason: `fails the ${country.name} check digit test` };
  return { ok: true, countryCode, normalized: cleaned };
}
