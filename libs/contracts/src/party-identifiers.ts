import {
  belgianEnterpriseNumberOk,
  checkCodiceFiscale,
  checkPartitaIva,
  gs1CheckDigitOk,
  norwegianOrgNumberOk,
  type IdCheck,
} from './participant-ids';

/**
 * Identifiers of a party beside its VAT ID: the seller identifier BT-29 (with its scheme BT-29-1) and the legal
 * registration identifier BT-30 (with its scheme BT-30-1). EN 16931 BR-CO-26 needs one of BT-29, BT-30 or the VAT ID
 * BT-31 for the seller, so a seller with only a tax number (a Kleinunternehmer under § 19 UStG) identifies itself
 * with one of these. Pure checks: the normalised value or the reason it is refused.
 */

/**
 * ISO 6523 ICD codes EN 16931 accepts as identifier scheme (BR-CL-10 for BT-29-1, BR-CL-11 for BT-30-1): 0002 to
 * 0248 without 0092, 0103, 0181 and 0182, as listed in the EN 16931 1.3.16 validation artefacts
 * (shared/conformance/en16931/ubl/xslt/EN16931-UBL-validation.xslt).
 */
export const ICD_CODES: readonly string[] = Array.from({ length: 247 }, (_, i) => String(i + 2).padStart(4, '0')).filter(
  (c) => !['0092', '0103', '0181', '0182'].includes(c),
);
const ICD = new Set(ICD_CODES);

/** Swedish organisation number (0007): 10 digits, Luhn. */
function swedishOrgNumberOk(v: string): boolean {
  if (!/^\d{10}$/.test(v)) return false;
  const sum = [...v].reverse().reduce((acc, ch, i) => {
    const d = Number(ch) * (i % 2 === 1 ? 2 : 1);
    return acc + (d > 9 ? d - 9 : d);
  }, 0);
  return sum % 10 === 0;
}

/** Australian Business Number (0151): 11 digits, first digit minus 1, weighted sum divisible by 89. */
function abnOk(v: string): boolean {
  if (!/^\d{11}$/.test(v)) return false;
  const weights = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  const sum = [...v].reduce((acc, ch, i) => acc + (Number(ch) - (i === 0 ? 1 : 0)) * weights[i]!, 0);
  return sum % 89 === 0;
}

/**
 * The formats Peppol's rules (PEPPOL-COMMON-R040 to R057) check for an identifier of these schemes wherever it
 * appears (endpoint, party identification, legal registration): an identifier of such a scheme that fails would make
 * every Peppol invoice fail. Other schemes: any identifier.
 */
const SCHEME_FORMATS: Record<string, { ok: (v: string) => boolean; reason: string }> = {
  '0007': { ok: swedishOrgNumberOk, reason: 'a Swedish organisation number (0007) has 10 digits with a Luhn check digit' },
  '0088': { ok: (v) => /^\d{13}$/.test(v) && gs1CheckDigitOk(v), reason: 'a GLN (0088) has 13 digits with a GS1 check digit' },
  '0096': { ok: (v) => /^\d{10}$/.test(v), reason: 'a Danish P number (0096) has 10 digits' },
  '0106': { ok: (v) => /^\d{8}$/.test(v), reason: 'a Dutch KvK number (0106) has 8 digits' },
  '0151': { ok: abnOk, reason: 'an Australian Business Number (0151) has 11 digits with its mod-89 check' },
  '0184': { ok: (v) => /^(DK)?\d{8}$/.test(v), reason: 'a Danish CVR number (0184) has 8 digits, optionally after DK' },
  '0190': { ok: (v) => /^\d{20}$/.test(v), reason: 'a Dutch OIN (0190) has 20 digits' },
  '0192': { ok: norwegianOrgNumberOk, reason: 'a Norwegian organisation number (0192) has 9 digits with a mod-11 check digit' },
  '0198': { ok: (v) => /^DK\d{8}$/.test(v), reason: 'a Danish SE number (0198) is DK and 8 digits' },
  '0201': { ok: (v) => /^[A-Z0-9]{6}$/.test(v), reason: 'an Italian IPA code (0201) has 6 letters or digits' },
  '0208': { ok: belgianEnterpriseNumberOk, reason: 'a Belgian enterprise number (0208) has 10 digits with a mod-97 check' },
  '0210': { ok: (v) => checkCodiceFiscale(v).ok, reason: 'an Italian Codice Fiscale (0210) has 16 characters or 11 digits with a check' },
  '0211': { ok: (v) => /^\d{11}$/.test(v) && checkPartitaIva(v).ok, reason: 'a Partita IVA (0211) has 11 digits with a check digit' },
  '0217': { ok: (v) => /^\d{12}$/.test(v), reason: 'a Dutch KvK establishment number (0217) has 12 digits' },
};

/** Whether `scheme` is an ISO 6523 ICD code EN 16931 accepts. */
export const isIcdCode = (scheme: string): boolean => ICD.has(scheme);

/**
 * An identifier (BT-29 or BT-30) under an optional ISO 6523 ICD scheme. Without a scheme any identifier is taken as
 * it is (trimmed); with one, the schemes Peppol checks must have their format (GLN 0088 with its check digit, ...),
 * stored upper-case without spaces.
 */
export function checkPartyIdentifier(value: string, scheme?: string): IdCheck {
  const v = value.trim();
  if (!v) return { ok: false, reason: 'must not be empty' };
  if (scheme === undefined) return { ok: true, value: v };
  if (!ICD.has(scheme)) return { ok: false, reason: `scheme ${scheme} is not an ISO 6523 ICD code (0002 to 0248)` };
  const format = SCHEME_FORMATS[scheme];
  if (!format) return { ok: true, value: v };
  const compact = v.toUpperCase().replace(/[\s.-]/g, '');
  return format.ok(compact) ? { ok: true, value: compact } : { ok: false, reason: format.reason };
}
