import type { TaxTreatmentId } from './invoices';

/** EN 16931 VAT category (UNCL5305) of each tax treatment; the vocabulary invoice and document services share. */
export const vatCategoryOfTreatment: Record<TaxTreatmentId, 'S' | 'AE' | 'K' | 'G' | 'E' | 'O'> = {
  standard: 'S',
  reduced: 'S',
  reverse_charge: 'AE',
  intra_community: 'K',
  export_outside_eu: 'G',
  exempt: 'E',
  outside_scope: 'O',
};

/** Rate (decimal fraction) used when a position gives a treatment but no rate. */
export const defaultRateOfTreatment: Record<TaxTreatmentId, string> = {
  standard: '0.19',
  reduced: '0.07',
  reverse_charge: '0',
  intra_community: '0',
  export_outside_eu: '0',
  exempt: '0',
  outside_scope: '0',
};

/**
 * Electronic-address scheme (CEF EAS code list) of an EU VAT number, per VAT country prefix. A party with
 * a VAT ID gets `<scheme>:<VAT ID>` as its electronic address (BT-34/BT-49), which PEPPOL accepts as an
 * endpoint; e-mail (scheme EM) is accepted by ZUGFeRD and XRechnung but not by PEPPOL (PEPPOL-EN16931-CL008).
 */
const vatSchemes: Record<string, string> = {
  AT: '9914', BE: '9925', BG: '9926', CY: '9928', CZ: '9929', DE: '9930', EE: '9931', EL: '9933', ES: '9920',
  FR: '9957', HR: '9934', HU: '9910', IE: '9935', IT: '0211', LT: '9937', LU: '9938', LV: '9939', MT: '9943',
  NL: '9944', PL: '9945', PT: '9946', RO: '9947', SI: '9949', SK: '9950', XI: '9932',
};

/** The electronic address of a party: its VAT ID under the country's EAS scheme, else its e-mail. */
export function electronicAddressOf(party: { vatId?: string; email?: string }): { scheme: string; value: string } | undefined {
  const scheme = party.vatId ? vatSchemes[party.vatId.slice(0, 2).toUpperCase()] : undefined;
  if (scheme && party.vatId) return { scheme, value: party.vatId };
  return party.email ? { scheme: 'EM', value: party.email } : undefined;
}
