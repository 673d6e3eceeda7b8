import { electronicAddressOf } from './api/tax';
import { checkVatIdSyntax } from './vat-id';

/**
 * Identifiers that make a buyer or seller reachable: the Peppol participant id (`EAS:identifier`, the
 * electronic address BT-34 / BT-49) and the Italian SdI routing and tax identifiers FatturaPA needs.
 * Pure checks: each returns the normalised value or the reason it is refused.
 */
export type IdCheck = { ok: true; value: string } | { ok: false; reason: string };

/**
 * EAS (Electronic Address Scheme) codes a Peppol endpoint may use: the `eaid` code list of Peppol BIS
 * Billing 3.0 release 3.0.21 ("2026.5"), rule PEPPOL-EN16931-CL008, copied from
 * shared/conformance/peppol/xslt/PEPPOL-EN16931-UBL.xslt (variable `eaid`). It is a subset of the CEF EAS
 * list of EN 16931 (BR-CL-25), without the e-mail scheme EM: a Peppol participant id is never an e-mail.
 */
export const PEPPOL_EAS_CODES: readonly string[] = (
  '0002 0007 0009 0060 0088 0096 0097 0106 0130 0135 0142 0151 0183 0184 0188 0190 0191 0192 0195 0196 0198 0199 0200 0201 ' +
  '0204 0208 0209 0210 0211 0216 0218 0221 0225 0230 0235 0240 0242 0244 0245 0246 0248 9910 9913 9914 9915 9918 9919 9920 ' +
  '9922 9923 9924 9925 9926 9927 9928 9929 9930 9931 9932 9933 9934 9935 9936 9937 9938 9939 9940 9941 9942 9943 9944 9945 ' +
  '9946 9947 9948 9949 9950 9951 9952 9953 9957 9959'
).split(' ');
const EAS = new Set(PEPPOL_EAS_CODES);

const digitsOf = (s: string) => [...s].map(Number);

/** GS1 mod-10 check digit (GLN, GTIN): weights 3,1,3,... from the right, excluding the check digit. */
export function gs1CheckDigitOk(value: string): boolean {
  if (!/^\d{2,}$/.test(value)) return false;
  const d = digitsOf(value);
  const check = d.pop()!;
  const sum = d.reverse().reduce((acc, x, i) => acc + x * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === check;
}

/** Norwegian organisation number: 9 digits, mod 11 with weights 3,2,7,6,5,4,3,2 (remainder 1 is never valid). */
export function norwegianOrgNumberOk(value: string): boolean {
  if (!/^\d{9}$/.test(value) || /^0+$/.test(value)) return false;
  const d = digitsOf(value);
  const sum = [3, 2, 7, 6, 5, 4, 3, 2].reduce((acc, w, i) => acc + w * d[i]!, 0);
  const check = (11 - (sum % 11)) % 11;
  return check !== 10 && check === d[8];
}

/** Belgian enterprise number (KBO/BCE): 10 digits, 97 - (first 8 digits mod 97) = last 2. */
export function belgianEnterpriseNumberOk(value: string): boolean {
  if (!/^\d{10}$/.test(value)) return false;
  return 97 - (Number(value.slice(0, 8)) % 97) === Number(value.slice(8));
}

/**
 * Peppol participant id `EAS:identifier`, e.g. `0192:987654325`, `0088:4035811991021`, `0208:0123456749`,
 * `9930:DE123456789`. The scheme must be a Peppol EAS code; GLN (0088), the Norwegian organisation number
 * (0192) and the Belgian enterprise number (0208) must pass their check digits (the same checks Peppol's
 * rules apply to EndpointID); a VAT-number scheme (99xx, 0211) needs a VAT ID of that country's shape;
 * other schemes are checked for a plausible identifier only. Stored upper-case.
 */
export function checkPeppolId(input: string): IdCheck {
  const raw = input.trim();
  const m = /^(\d{4}):(.+)$/.exec(raw);
  if (!m) return { ok: false, reason: 'must be EAS:identifier, e.g. 0192:987654325 (a 4-digit EAS scheme code, a colon, the identifier)' };
  const scheme = m[1]!;
  const id = m[2]!.toUpperCase();
  if (!EAS.has(scheme)) return { ok: false, reason: `scheme ${scheme} is not in the Peppol EAS code list` };
  if (!/^[A-Z0-9][A-Z0-9._\-/+]{0,49}$/.test(id))
    return { ok: false, reason: 'the identifier must be 1-50 letters, digits or . _ - / + without spaces' };
  switch (scheme) {
    case '0088':
      if (!/^\d{13}$/.test(id)) return { ok: false, reason: 'a GLN (0088) has 13 digits' };
      if (!gs1CheckDigitOk(id)) return { ok: false, reason: 'the GLN (0088) fails the GS1 check digit' };
      break;
    case '0192':
      if (!/^\d{9}$/.test(id)) return { ok: false, reason: 'a Norwegian organisation number (0192) has 9 digits' };
      if (!norwegianOrgNumberOk(id)) return { ok: false, reason: 'the Norwegian organisation number (0192) fails its mod-11 check digit' };
      break;
    case '0208':
      if (!/^\d{10}$/.test(id)) return { ok: false, reason: 'a Belgian enterprise number (0208) has 10 digits' };
      if (!belgianEnterpriseNumberOk(id)) return { ok: false, reason: 'the Belgian enterprise number (0208) fails its mod-97 check' };
      break;
    default: {
      // VAT-number schemes: the identifier is a VAT ID of the scheme's country (9930 = DE, 0211 = IT, ...)
      const vatScheme = /^[A-Z]{2}/.test(id) ? electronicAddressOf({ vatId: id })?.scheme : undefined;
      if (vatScheme === scheme) {
        const syntax = checkVatIdSyntax(id);
        if (!syntax.ok && !syntax.checkDigitFailed) return { ok: false, reason: `scheme ${scheme} needs a VAT ID: ${syntax.reason}` };
      } else if (isVatScheme(scheme)) {
        return { ok: false, reason: `scheme ${scheme} needs a VAT ID with the country prefix of that scheme` };
      }
    }
  }
  return { ok: true, value: `${scheme}:${id}` };
}

/** Whether the EAS scheme is one of the EU VAT-number schemes (derived from the VAT prefix table in api/tax.ts). */
function isVatScheme(scheme: string): boolean {
  return VAT_SCHEMES.has(scheme);
}
const VAT_SCHEMES = new Set(
  'AT BE BG CY CZ DE EE EL ES FI FR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK XI'
    .split(' ')
    .map((p) => electronicAddressOf({ vatId: `${p}0` })?.scheme)
    .filter((s): s is string => !!s && s !== 'EM'),
);

/** Splits a checked participant id into the EndpointID scheme and value. */
export function peppolEndpoint(peppolId: string): { scheme: string; value: string } {
  const i = peppolId.indexOf(':');
  return { scheme: peppolId.slice(0, i), value: peppolId.slice(i + 1) };
}

/**
 * Italian check digit of an 11-digit Partita IVA (and of a company's numeric Codice Fiscale): the digits
 * at odd positions count as they are, those at even positions doubled (minus 9 above 9); the sum ends in 0.
 */
export function italianLuhnOk(value: string): boolean {
  if (!/^\d{11}$/.test(value)) return false;
  const sum = digitsOf(value).reduce((acc, x, i) => {
    if (i % 2 === 0) return acc + x;
    const dbl = x * 2;
    return acc + (dbl > 9 ? dbl - 9 : dbl);
  }, 0);
  return sum % 10 === 0;
}

/** Partita IVA: 11 digits with its check digit (an `IT` prefix is accepted and dropped). */
export function checkPartitaIva(input: string): IdCheck {
  const v = input.trim().toUpperCase().replace(/^IT/, '').replace(/\s/g, '');
  if (!/^\d{11}$/.test(v)) return { ok: false, reason: 'a Partita IVA has 11 digits' };
  if (/^0{11}$/.test(v) || !italianLuhnOk(v)) return { ok: false, reason: 'the Partita IVA fails its check digit' };
  return { ok: true, value: v };
}

// Codice Fiscale check character: value of each character at odd (1st, 3rd, ...) and even positions.
const CF_ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];
const cfIndex = (c: string) => (c >= '0' && c <= '9' ? c.charCodeAt(0) - 48 : c.charCodeAt(0) - 65);
/** Layout of a personal Codice Fiscale; digits may be replaced by L M N P Q R S T U V (omocodia). */
const CF16 = /^[A-Z]{6}[0-9LMNPQRSTUV]{2}[ABCDEHLMPRST][0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{3}[A-Z]$/;

/** Check character (the 16th) of a personal Codice Fiscale from its first 15 characters. */
export function codiceFiscaleCheckChar(first15: string): string {
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    const n = cfIndex(first15[i]!);
    sum += i % 2 === 0 ? CF_ODD[n]! : n;
  }
  return String.fromCharCode(65 + (sum % 26));
}

/** Codice Fiscale: 16 characters (a person, with its check character) or 11 digits (a company, with its check digit). */
export function checkCodiceFiscale(input: string): IdCheck {
  const v = input.trim().toUpperCase().replace(/\s/g, '');
  if (/^\d{11}$/.test(v)) {
    return italianLuhnOk(v) && !/^0{11}$/.test(v)
      ? { ok: true, value: v }
      : { ok: false, reason: 'the 11-digit Codice Fiscale fails its check digit' };
  }
  if (v.length !== 16) return { ok: false, reason: 'a Codice Fiscale has 16 characters (a person) or 11 digits (a company)' };
  if (!CF16.test(v)) return { ok: false, reason: 'not the layout of a personal Codice Fiscale (e.g. RSSMRA85T10A562S)' };
  if (codiceFiscaleCheckChar(v.slice(0, 15)) !== v[15]) return { ok: false, reason: 'the Codice Fiscale fails its check character' };
  return { ok: true, value: v };
}

/** SdI recipient code: 7 characters for companies (B2B; 0000000 = deliver to the PEC), 6 for public administrations (Codice Ufficio). */
export function checkCodiceDestinatario(input: string): IdCheck {
  const v = input.trim().toUpperCase();
  if (!/^[A-Z0-9]{6,7}$/.test(v))
    return { ok: false, reason: 'the SdI recipient code has 7 letters or digits (6 for a public administration)' };
  return { ok: true, value: v };
}
