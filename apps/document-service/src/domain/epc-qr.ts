import { electronicFormatIBAN, isSEPACountry, isValidBIC, isValidIBAN } from 'ibantools';

/**
 * The payload of an EPC QR code ("GiroCode"), after EPC069-12 "Quick Response Code: Guidelines to Enable Data
 * Capture for the Initiation of a SEPA Credit Transfer": lines separated by LF, in this order
 *
 *   BCD · 002 (version: BIC optional) · 1 (character set UTF-8) · SCT · BIC · beneficiary name (≤ 70) ·
 *   IBAN (≤ 34) · amount `EUR<amount>` (0.01–999999999.99, decimal point, at most 2 decimals, no thousands
 *   separators) · purpose code (≤ 4) · structured creditor reference (≤ 35) · unstructured remittance (≤ 140,
 *   only when there is no structured one) · beneficiary-to-originator information (≤ 70)
 *
 * and at most 331 bytes in all; trailing empty lines are left out. The symbol uses error correction level M.
 * Pure: no I/O, the PDF renderer draws the matrix.
 */
export const EPC_MAX_BYTES = 331;
export const EPC_LIMITS = { name: 70, iban: 34, purpose: 4, reference: 35, text: 140, info: 70 } as const;
const MAX_CENTS = 99_999_999_999n; // 999999999.99

export interface EpcCreditTransfer {
  beneficiaryName: string;
  iban: string;
  bic?: string;
  currency: string;
  /** Decimal string ("1925.52"); never a float. */
  amount: string;
  /** ISO 20022 ExternalPurpose1Code (4 capital letters), e.g. GDDS. */
  purpose?: string;
  /** An ISO 11649 creditor reference (RF…) goes into the structured field, anything else into the unstructured one. */
  remittance?: string;
  /** Shown to the payer by the banking app, not sent with the transfer. */
  beneficiaryToOriginator?: string;
}

/** The fields as they stand in the payload (what a scanner reads back). */
export interface EpcQrFields {
  bic?: string;
  name: string;
  iban: string;
  /** `EUR1925.52` */
  amount: string;
  purpose?: string;
  reference?: string;
  text?: string;
  info?: string;
}

export type EpcQrRefusal = 'currency' | 'amount' | 'iban' | 'bic' | 'name' | 'purpose';
export type EpcQrResult = { ok: true; payload: string; fields: EpcQrFields } | { ok: false; reason: EpcQrRefusal; message: string };

const refuse = (reason: EpcQrRefusal, message: string): EpcQrResult => ({ ok: false, reason, message });

const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

/**
 * One line of free text: NFC, no control characters or line breaks (a line break would shift every field
 * after it), runs of white space collapsed.
 */
export function epcText(raw: string | undefined): string {
  return (raw ?? '')
    .normalize('NFC')
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** At most `max` characters (code points, so that no surrogate pair is split). */
export function truncate(s: string, max: number): string {
  const chars = Array.from(s);
  return chars.length <= max ? s : chars.slice(0, max).join('').trimEnd();
}

/** At most `max` UTF-8 bytes, cut at a character boundary. */
function truncateBytes(s: string, max: number): string {
  let out = '';
  for (const ch of s) {
    if (bytes(out + ch) > max) break;
    out += ch;
  }
  return out.trimEnd();
}

/**
 * `EUR<amount>`: cents counted with BigInt from the decimal string (no binary floats), printed with two
 * decimals as the invoice prints it ("EUR1234.50"; the guideline allows "EUR1234.5" too: at most two).
 */
export function epcAmount(currency: string, amount: string): { ok: true; value: string } | { ok: false; message: string } {
  if (currency !== 'EUR') return { ok: false, message: `an EPC QR code is for euro transfers only, not ${currency}` };
  const m = /^(\d{1,15})(?:\.(\d{1,10}))?$/.exec(amount.trim());
  if (!m) return { ok: false, message: `amount ${JSON.stringify(amount)} is not a positive decimal` };
  const fraction = m[2] ?? '';
  if (/[1-9]/.test(fraction.slice(2))) return { ok: false, message: `amount ${amount} has more than two decimals` };
  const cents = BigInt(m[1]) * 100n + BigInt(fraction.slice(0, 2).padEnd(2, '0'));
  if (cents < 1n || cents > MAX_CENTS) return { ok: false, message: `amount ${amount} is outside 0.01–999999999.99` };
  return { ok: true, value: `EUR${cents / 100n}.${String(cents % 100n).padStart(2, '0')}` };
}

/**
 * ISO 11649 creditor reference: RF, two check digits, 1–21 letters or digits; letters count as 10–35 and the
 * number with the first four characters moved to the end is 1 mod 97. Written here because ibantools checks
 * the same mod 97 for IBANs only (it insists on a country's IBAN format).
 */
export function isCreditorReference(raw: string): boolean {
  const ref = raw.replace(/\s+/g, '').toUpperCase();
  if (!/^RF\d{2}[0-9A-Z]{1,21}$/.test(ref)) return false;
  const digits = (ref.slice(4) + ref.slice(0, 4)).replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  return rest === 1;
}

export function buildEpcQr(t: EpcCreditTransfer): EpcQrResult {
  const amount = epcAmount(t.currency, t.amount);
  if (!amount.ok) return refuse(t.currency === 'EUR' ? 'amount' : 'currency', amount.message);

  const iban = electronicFormatIBAN(t.iban ?? '') ?? '';
  if (!iban || !isValidIBAN(iban)) return refuse('iban', 'no valid IBAN');
  if (!isSEPACountry(iban.slice(0, 2))) return refuse('iban', `IBAN of ${iban.slice(0, 2)}, outside the SEPA scheme`);

  const bic = t.bic?.replace(/\s+/g, '').toUpperCase() || undefined;
  if (bic !== undefined && !isValidBIC(bic)) return refuse('bic', `BIC ${JSON.stringify(t.bic)} is not valid`);

  let name = truncate(epcText(t.beneficiaryName), EPC_LIMITS.name);
  if (!name) return refuse('name', 'the beneficiary name is empty');

  const purpose = epcText(t.purpose) || undefined;
  if (purpose !== undefined && !/^[A-Z]{4}$/.test(purpose))
    return refuse('purpose', `purpose ${JSON.stringify(t.purpose)} is not a 4-letter code`);

  const remittance = epcText(t.remittance);
  const reference = remittance && isCreditorReference(remittance) ? remittance.replace(/\s+/g, '').toUpperCase() : undefined;
  let text = reference ? '' : truncate(remittance, EPC_LIMITS.text);
  let info = truncate(epcText(t.beneficiaryToOriginator), EPC_LIMITS.info);

  const lines = () => ['BCD', '002', '1', 'SCT', bic ?? '', name, iban, amount.value, purpose ?? '', reference ?? '', text, info];
  const join = () => {
    const all = lines();
    while (all[all.length - 1] === '') all.pop();
    return all.join('\n');
  };
  // Over 331 bytes only with long multi-byte texts: give up room from the least needed field first.
  for (const shorten of [
    () => (info = truncateBytes(info, Math.max(0, bytes(info) - (bytes(join()) - EPC_MAX_BYTES)))),
    () => (text = truncateBytes(text, Math.max(0, bytes(text) - (bytes(join()) - EPC_MAX_BYTES)))),
    () => (name = truncateBytes(name, Math.max(1, bytes(name) - (bytes(join()) - EPC_MAX_BYTES)))),
  ]) {
    if (bytes(join()) <= EPC_MAX_BYTES) break;
    shorten();
  }
  const payload = join();
  if (bytes(payload) > EPC_MAX_BYTES || !name) return refuse('name', 'the payload does not fit 331 bytes');

  const fields: EpcQrFields = { name, iban, amount: amount.value };
  if (bic) fields.bic = bic;
  if (purpose) fields.purpose = purpose;
  if (reference) fields.reference = reference;
  if (text) fields.text = text;
  if (info) fields.info = info;
  return { ok: true, payload, fields };
}
