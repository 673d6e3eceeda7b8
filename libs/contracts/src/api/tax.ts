import type { TaxTreatmentId } from './invoices';

/**
 * The one table of our tax treatments: EN 16931 VAT category (UNCL5305) and the default rate as a decimal
 * fraction ("0.19") for German sellers. invoice-service reads it as it is; libs/einvoice derives its table
 * (rates in percent, labels, exemption reasons) from it.
 */
export const taxTreatmentRules = {
  standard: { vatCategory: 'S', defaultRate: '0.19' },
  reduced: { vatCategory: 'S', defaultRate: '0.07' },
  reverse_charge: { vatCategory: 'AE', defaultRate: '0' },
  intra_community: { vatCategory: 'K', defaultRate: '0' },
  export_outside_eu: { vatCategory: 'G', defaultRate: '0' },
  exempt: { vatCategory: 'E', defaultRate: '0' },
  outside_scope: { vatCategory: 'O', defaultRate: '0' },
} as const satisfies Record<TaxTreatmentId, { vatCategory: 'S' | 'AE' | 'K' | 'G' | 'E' | 'O'; defaultRate: string }>;

type TreatmentCategory = (typeof taxTreatmentRules)[TaxTreatmentId]['vatCategory'];
const treatmentIds = Object.keys(taxTreatmentRules) as TaxTreatmentId[];

/** EN 16931 VAT category (UNCL5305) of each tax treatment; the vocabulary invoice and document services share. */
export const vatCategoryOfTreatment = Object.fromEntries(treatmentIds.map((id) => [id, taxTreatmentRules[id].vatCategory])) as Record<
  TaxTreatmentId,
  TreatmentCategory
>;

/** Rate (decimal fraction) used when a position gives a treatment but no rate. */
export const defaultRateOfTreatment = Object.fromEntries(treatmentIds.map((id) => [id, taxTreatmentRules[id].defaultRate])) as Record<
  TaxTreatmentId,
  string
>;

/**
 * Electronic-address scheme (CEF EAS code list) of an EU VAT number, per VAT country prefix. A party with
 * a VAT ID gets `<scheme>:<VAT ID>` as its electronic address (BT-34/BT-49), which PEPPOL accepts as an
 * endpoint; e-mail (scheme EM) is accepted by ZUGFeRD and XRechnung but not by PEPPOL (PEPPOL-EN16931-CL008).
 */
const vatSchemes: Record<string, string> = {
  AT: '9914',
  BE: '9925',
  BG: '9926',
  CY: '9928',
  CZ: '9929',
  DE: '9930',
  EE: '9931',
  EL: '9933',
  ES: '9920',
  FR: '9957',
  HR: '9934',
  HU: '9910',
  IE: '9935',
  IT: '0211',
  LT: '9937',
  LU: '9938',
  LV: '9939',
  MT: '9943',
  NL: '9944',
  PL: '9945',
  PT: '9946',
  RO: '9947',
  SI: '9949',
  SK: '9950',
  XI: '9932',
};

/** The electronic address of a party: its VAT ID under the country's EAS scheme, else its e-mail. */
export function electronicAddressOf(party: { vatId?: string; email?: string }): { scheme: string; value: string } | undefined {
  const scheme = party.vatId ? vatSchemes[party.vatId.slice(0, 2).toUpperCase()] : undefined;
  if (scheme && party.vatId) return { scheme, value: party.vatId };
  return party.email ? { scheme: 'EM', value: party.email } : undefined;
}
