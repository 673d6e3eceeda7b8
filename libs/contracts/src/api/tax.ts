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
