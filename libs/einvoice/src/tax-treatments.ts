import { taxTreatmentRules } from '@inv/contracts/tables';
import { Dec } from '@inv/money';
import type { TaxTreatment, VatCategoryCode } from './model';

export type Locale = 'en' | 'de';

export interface TaxTreatmentDefinition {
  id: TaxTreatment;
  /** EN 16931 VAT category (BT-151 / BT-118, UNCL5305). */
  vatCategory: VatCategoryCode;
  /** Default rate in percent for German sellers ("19", "7", "0"). */
  defaultRate: string;
  /**
   * Exemption reason (BT-120) and VATEX code (BT-121). The EN 16931 rules BR-AE-10, BR-IC-10, BR-G-10,
   * BR-E-10 and BR-O-10 require a reason text or code in the VAT breakdown of these categories.
   */
  exemption?: { code?: string; reason: Record<Locale, string> };
  label: Record<Locale, string>;
  /** FatturaPA "Natura" (1.2.2 code list) for non-S categories. */
  fatturaPaNatura?: string;
}

type TreatmentText = Pick<TaxTreatmentDefinition, 'id' | 'exemption' | 'label' | 'fatturaPaNatura'>;

/** What each treatment means for the e-invoice beyond its category and rate (labels, exemption reasons). */
const treatmentTexts: readonly TreatmentText[] = [
  {
    id: 'standard',
    label: { en: 'Standard rate', de: 'Regelsteuersatz' },
  },
  {
    id: 'reduced',
    label: { en: 'Reduced rate', de: 'Ermäßigter Steuersatz' },
  },
  {
    id: 'reverse_charge',
    exemption: {
      code: 'VATEX-EU-AE',
      reason: { en: 'Reverse charge', de: 'Steuerschuldnerschaft des Leistungsempfängers (Reverse Charge)' },
    },
    label: { en: 'Reverse charge (EU B2B services)', de: 'Reverse Charge (EU-B2B-Leistungen)' },
    fatturaPaNatura: 'N2.1',
  },
  {
    id: 'intra_community',
    exemption: {
      code: 'VATEX-EU-IC',
      reason: { en: 'Intra-Community supply', de: 'Steuerfreie innergemeinschaftliche Lieferung' },
    },
    label: { en: 'Intra-community supply', de: 'Innergemeinschaftliche Lieferung' },
    fatturaPaNatura: 'N3.2',
  },
  {
    id: 'export_outside_eu',
    exemption: {
      code: 'VATEX-EU-G',
      reason: { en: 'Export outside the EU', de: 'Steuerfreie Ausfuhrlieferung' },
    },
    label: { en: 'Export outside the EU', de: 'Ausfuhr in Drittländer' },
    fatturaPaNatura: 'N3.1',
  },
  {
    id: 'exempt',
    // No VATEX code by default: which article applies (e.g. VATEX-EU-132-1I for medical care) depends on the
    // service; the reason text alone satisfies BR-E-10 and callers can set a code via EInvoice.exemptions.
    exemption: { reason: { en: 'Exempt from VAT', de: 'Steuerbefreit' } },
    label: { en: 'Exempt from VAT', de: 'Steuerfrei' },
    fatturaPaNatura: 'N4',
  },
  {
    id: 'outside_scope',
    exemption: {
      code: 'VATEX-EU-O',
      reason: { en: 'Not subject to VAT', de: 'Nicht steuerbar' },
    },
    label: { en: 'Outside the scope of VAT', de: 'Nicht steuerbar' },
    fatturaPaNatura: 'N2.2',
  },
];

/**
 * Our tax treatments and what each means for the e-invoice. Category and default rate come from the one
 * table in libs/contracts (`taxTreatmentRules`, rates as fractions); here the rate is in percent ("19").
 */
export const taxTreatments: readonly TaxTreatmentDefinition[] = treatmentTexts.map((t) => ({
  ...t,
  vatCategory: taxTreatmentRules[t.id].vatCategory,
  defaultRate: new Dec(taxTreatmentRules[t.id].defaultRate).times(100).toString(),
}));

const byId = new Map(taxTreatments.map((t) => [t.id, t]));

export function isTaxTreatment(id: string): id is TaxTreatment {
  return byId.has(id as TaxTreatment);
}

/** The definition of a treatment; throws RangeError for an unknown id. */
export function getTaxTreatment(id: string): TaxTreatmentDefinition {
  const t = byId.get(id as TaxTreatment);
  if (!t) throw new RangeError(`unknown tax treatment ${JSON.stringify(id)}`);
  return t;
}

export interface TaxTreatmentListEntry {
  id: TaxTreatment;
  label: string;
  vat_category: VatCategoryCode;
  default_rate: string;
}

/** The list behind GET /invoice/tax-treatments?locale=; unknown locales fall back to English. */
export function listTaxTreatments(locale: Locale): TaxTreatmentListEntry[] {
  const lang: Locale = locale === 'de' ? 'de' : 'en';
  return taxTreatments.map((t) => ({ id: t.id, label: t.label[lang], vat_category: t.vatCategory, default_rate: t.defaultRate }));
}

/** Default exemption per category (first treatment with that category), used when the invoice sets none. */
function defaultExemption(category: VatCategoryCode): TaxTreatmentDefinition['exemption'] {
  return taxTreatments.find((t) => t.vatCategory === category)?.exemption;
}

/**
 * Exemption reason text and VATEX code for a VAT breakdown entry. The invoice's own `exemptions` win;
 * otherwise the treatment table gives the default in the document language. S and Z have none.
 */
export function exemptionFor(
  category: VatCategoryCode,
  invoice: { exemptions?: Partial<Record<VatCategoryCode, { reason?: string; code?: string }>>; language: Locale },
): { reason?: string; code?: string } | undefined {
  if (category === 'S' || category === 'Z') return undefined;
  const own = invoice.exemptions?.[category];
  const def = defaultExemption(category);
  const reason = own?.reason ?? def?.reason[invoice.language];
  const code = own?.code ?? (own?.reason ? undefined : def?.code);
  return { ...(reason ? { reason } : {}), ...(code ? { code } : {}) };
}

/** FatturaPA Natura code for a category; undefined for S. */
export function fatturaPaNatura(category: VatCategoryCode): string | undefined {
  // Italy has no zero rate of its own; N3.6 ("other non-taxable operations") is the nearest Natura.
  if (category === 'Z') return 'N3.6';
  return taxTreatments.find((t) => t.vatCategory === category)?.fatturaPaNatura;
}
