import { rateKind } from '../domain/vat-rates';
import type { PdfLanguage } from './format';

/** Every fixed text the PDFs print, in German and English. */
export interface Labels {
  invoice: string;
  creditNote: string;
  statement: string;
  page: (n: number, of: number) => string;
  draft: string;
  /** The header line of a test-mode document (docs/test-mode.md). */
  testMark: string;
  /** The same for documents other than invoices (reminders, statements). */
  testMarkDocument: string;
  invoiceNumber: string;
  creditNoteNumber: string;
  issueDate: string;
  creditNoteDate: string;
  dueDate: string;
  servicePeriod: string;
  deliveryDate: string;
  serviceDateIsIssueDate: string;
  buyerReference: string;
  orderReference: string;
  customerVatId: string;
  customerNumber: string;
  precedingInvoice: (number: string, date?: string) => string;
  contact: string;
  pos: string;
  description: string;
  quantity: string;
  unit: string;
  unitPrice: string;
  /** Column heading of the rate (positions and VAT breakdown). */
  vatRate: string;
  amount: string;
  discount: string;
  continued: string;
  totalNet: string;
  vatOn: (rate: string, base: string) => string;
  totalVat: string;
  totalGross: string;
  prepaid: string;
  amountDue: string;
  vatBreakdown: string;
  vatCategory: string;
  taxableAmount: string;
  /** Column heading of the VAT amount in the breakdown (distinct from the rate's). */
  taxAmount: string;
  payment: string;
  paymentTermsDefault: (due?: string) => string;
  noPaymentDue: string;
  transferTo: string;
  accountHolder: string;
  iban: string;
  bic: string;
  remittance: string;
  /** Caption of the EPC QR code (GiroCode) beside the payment paragraph. */
  girocode: string;
  /** What amount the code carries: always the full amount due, Skonto is not deducted. */
  girocodeAmount: (amount: string, skonto: boolean) => string;
  notes: string;
  phone: string;
  email: string;
  vatId: string;
  taxNumber: string;
  register: string;
  managingDirectors: (count: number) => string;
  bank: string;
  statementPeriod: string;
  statementDate: string;
  date: string;
  document: string;
  type: string;
  debit: string;
  credit: string;
  balance: string;
  openingBalance: string;
  closingBalance: string;
  balanceInOurFavour: string;
  balanceInYourFavour: string;
  balanceSettled: string;
  entryType: Record<'invoice' | 'credit_note' | 'payment' | 'discount' | 'refund' | 'adjustment' | 'reminder_fee' | 'interest', string>;
  intro: { invoice: string; creditNote: string; statement: string };
}

const de: Labels = {
  invoice: 'Rechnung',
  creditNote: 'Rechnungskorrektur',
  statement: 'Kontoauszug',
  page: (n, of) => `Seite ${n} von ${of}`,
  draft: 'ENTWURF',
  testMark: 'TEST – im Testmodus erstellt, keine gültige Rechnung',
  testMarkDocument: 'TEST – im Testmodus erstellt, kein gültiges Dokument',
  invoiceNumber: 'Rechnungsnummer',
  creditNoteNumber: 'Korrekturnummer',
  issueDate: 'Rechnungsdatum',
  creditNoteDate: 'Korrekturdatum',
  dueDate: 'Fällig am',
  servicePeriod: 'Leistungszeitraum',
  deliveryDate: 'Leistungsdatum',
  serviceDateIsIssueDate: 'Das Leistungsdatum entspricht dem Rechnungsdatum.',
  buyerReference: 'Ihre Referenz',
  orderReference: 'Bestellnummer',
  customerVatId: 'Ihre USt-IdNr.',
  customerNumber: 'Kundennummer',
  precedingInvoice: (n, d) => `Korrektur zur Rechnung ${n}${d ? ` vom ${d}` : ''}`,
  contact: 'Ansprechpartner',
  pos: 'Pos.',
  description: 'Bezeichnung',
  quantity: 'Menge',
  unit: 'Einheit',
  unitPrice: 'Einzelpreis',
  vatRate: 'USt.-Satz',
  amount: 'Betrag',
  discount: 'Rabatt',
  continued: 'Fortsetzung',
  totalNet: 'Summe netto',
  vatOn: (rate, base) => `zzgl. ${rate} USt. auf ${base}`,
  totalVat: 'Umsatzsteuer',
  totalGross: 'Gesamtbetrag',
  prepaid: 'Bereits gezahlt',
  amountDue: 'Zahlbetrag',
  vatBreakdown: 'Umsatzsteuer',
  vatCategory: 'Kategorie',
  taxableAmount: 'Netto',
  taxAmount: 'USt.-Betrag',
  payment: 'Zahlung',
  paymentTermsDefault: (due) => (due ? `Zahlbar ohne Abzug bis ${due}.` : 'Zahlbar sofort ohne Abzug.'),
  noPaymentDue: 'Es ist keine Zahlung fällig.',
  transferTo: 'Bitte überweisen Sie den Betrag auf folgendes Konto:',
  accountHolder: 'Kontoinhaber',
  iban: 'IBAN',
  bic: 'BIC',
  remittance: 'Verwendungszweck',
  girocode: 'GiroCode \u2013 zum Bezahlen scannen',
  girocodeAmount: (amount, skonto) => `Betrag: ${amount}\nvoller offener Betrag${skonto ? ',\nohne Abzug von Skonto' : ''}`,
  notes: 'Hinweise',
  phone: 'Tel.',
  email: 'E-Mail',
  vatId: 'USt-IdNr.',
  taxNumber: 'Steuernummer',
  register: 'Registergericht',
  managingDirectors: () => 'Geschäftsführung',
  bank: 'Bankverbindung',
  statementPeriod: 'Zeitraum',
  statementDate: 'Datum',
  date: 'Datum',
  document: 'Beleg',
  type: 'Art',
  debit: 'Soll',
  credit: 'Haben',
  balance: 'Saldo',
  openingBalance: 'Anfangssaldo',
  closingBalance: 'Endsaldo',
  balanceInOurFavour: 'Offener Betrag zu unseren Gunsten',
  balanceInYourFavour: 'Guthaben zu Ihren Gunsten',
  balanceSettled: 'Ihr Konto ist ausgeglichen.',
  entryType: {
    invoice: 'Rechnung',
    credit_note: 'Rechnungskorrektur',
    payment: 'Zahlung',
    discount: 'Skonto',
    refund: 'Erstattung',
    adjustment: 'Korrektur',
    reminder_fee: 'Mahngebühr',
    interest: 'Verzugszinsen',
  },
  intro: {
    invoice: 'Vielen Dank für Ihren Auftrag. Wir berechnen Ihnen folgende Leistungen:',
    creditNote: 'Wir korrigieren die genannte Rechnung wie folgt:',
    statement: 'Nachfolgend erhalten Sie eine Übersicht über Ihr Kundenkonto:',
  },
};

const en: Labels = {
  invoice: 'Invoice',
  creditNote: 'Credit note',
  statement: 'Account statement',
  page: (n, of) => `Page ${n} of ${of}`,
  draft: 'DRAFT',
  testMark: 'TEST – created in test mode, not a valid invoice',
  testMarkDocument: 'TEST – created in test mode, not a valid document',
  invoiceNumber: 'Invoice number',
  creditNoteNumber: 'Credit note number',
  issueDate: 'Invoice date',
  creditNoteDate: 'Credit note date',
  dueDate: 'Due date',
  servicePeriod: 'Service period',
  deliveryDate: 'Delivery date',
  serviceDateIsIssueDate: 'The date of supply is the invoice date.',
  buyerReference: 'Your reference',
  orderReference: 'Order number',
  customerVatId: 'Your VAT ID',
  customerNumber: 'Customer number',
  precedingInvoice: (n, d) => `Credit note for invoice ${n}${d ? ` of ${d}` : ''}`,
  contact: 'Contact',
  pos: 'No.',
  description: 'Description',
  quantity: 'Qty',
  unit: 'Unit',
  unitPrice: 'Unit price',
  vatRate: 'VAT rate',
  amount: 'Amount',
  discount: 'Discount',
  continued: 'continued',
  totalNet: 'Total net',
  vatOn: (rate, base) => `VAT ${rate} on ${base}`,
  totalVat: 'Total VAT',
  totalGross: 'Total',
  prepaid: 'Paid in advance',
  amountDue: 'Amount due',
  vatBreakdown: 'VAT breakdown',
  vatCategory: 'Category',
  taxableAmount: 'Net',
  taxAmount: 'VAT',
  payment: 'Payment',
  paymentTermsDefault: (due) => (due ? `Payable without deduction by ${due}.` : 'Payable immediately without deduction.'),
  noPaymentDue: 'No payment is due.',
  transferTo: 'Please transfer the amount to the following account:',
  accountHolder: 'Account holder',
  iban: 'IBAN',
  bic: 'BIC',
  remittance: 'Payment reference',
  girocode: 'GiroCode \u2013 scan to pay',
  girocodeAmount: (amount, skonto) => `Amount: ${amount}\nthe full amount due${skonto ? ',\nno early payment discount deducted' : ''}`,
  notes: 'Notes',
  phone: 'Phone',
  email: 'Email',
  vatId: 'VAT ID',
  taxNumber: 'Tax number',
  register: 'Register court',
  managingDirectors: (n) => (n === 1 ? 'Managing director' : 'Managing directors'),
  bank: 'Bank details',
  statementPeriod: 'Period',
  statementDate: 'Date',
  date: 'Date',
  document: 'Document',
  type: 'Type',
  debit: 'Debit',
  credit: 'Credit',
  balance: 'Balance',
  openingBalance: 'Opening balance',
  closingBalance: 'Closing balance',
  balanceInOurFavour: 'Balance due to us',
  balanceInYourFavour: 'Balance in your favour',
  balanceSettled: 'Your account is settled.',
  entryType: {
    invoice: 'Invoice',
    credit_note: 'Credit note',
    payment: 'Payment',
    discount: 'Cash discount',
    refund: 'Refund',
    adjustment: 'Adjustment',
    reminder_fee: 'Reminder fee',
    interest: 'Interest',
  },
  intro: {
    invoice: 'Thank you for your order. We are pleased to invoice you for the following:',
    creditNote: 'We correct the invoice referred to above as follows:',
    statement: 'Please find below an overview of your customer account:',
  },
};

const LABELS: Record<PdfLanguage, Labels> = { de, en };

export function labelsFor(lang: PdfLanguage): Labels {
  const l = LABELS[lang];
  if (!l) throw new RangeError(`language must be "de" or "en", got ${JSON.stringify(lang)}`);
  return l;
}

/**
 * UN/ECE Rec 20 unit codes we print with a readable name, as [singular, plural]; other codes are
 * printed as the code itself.
 */
const UNITS: Record<string, Record<PdfLanguage, [string, string]>> = {
  HUR: { de: ['Std.', 'Std.'], en: ['h', 'h'] },
  MIN: { de: ['Min.', 'Min.'], en: ['min', 'min'] },
  DAY: { de: ['Tag', 'Tage'], en: ['day', 'days'] },
  WEE: { de: ['Woche', 'Wochen'], en: ['week', 'weeks'] },
  MON: { de: ['Monat', 'Monate'], en: ['month', 'months'] },
  ANN: { de: ['Jahr', 'Jahre'], en: ['year', 'years'] },
  C62: { de: ['Stk.', 'Stk.'], en: ['pc', 'pcs'] },
  H87: { de: ['Stk.', 'Stk.'], en: ['pc', 'pcs'] },
  XPP: { de: ['Stk.', 'Stk.'], en: ['pc', 'pcs'] },
  SET: { de: ['Set', 'Sets'], en: ['set', 'sets'] },
  LS: { de: ['pauschal', 'pauschal'], en: ['lump sum', 'lump sum'] },
  E48: { de: ['Leistung', 'Leistungen'], en: ['service', 'services'] },
  KGM: { de: ['kg', 'kg'], en: ['kg', 'kg'] },
  GRM: { de: ['g', 'g'], en: ['g', 'g'] },
  MTR: { de: ['m', 'm'], en: ['m', 'm'] },
  KMT: { de: ['km', 'km'], en: ['km', 'km'] },
  MTK: { de: ['m²', 'm²'], en: ['m²', 'm²'] },
  LTR: { de: ['l', 'l'], en: ['l', 'l'] },
  KWH: { de: ['kWh', 'kWh'], en: ['kWh', 'kWh'] },
};

/** "MON" with quantity "1" -> "Monat", with "3" -> "Monate"; decided on the string, no arithmetic. */
export function unitName(code: string, lang: PdfLanguage, quantity = '2'): string {
  const forms = UNITS[code]?.[lang];
  if (!forms) return code;
  return /^\+?0*1(\.0*)?$/.test(quantity) ? forms[0] : forms[1];
}

/**
 * What the invoice must say for a VAT category (German UStG § 14 (4) Nr. 8 / § 14a and Art. 226 VAT
 * Directive require the reason for an exemption or reverse charge on the document).
 */
const VAT_CATEGORY: Record<string, Record<PdfLanguage, string>> = {
  S: { de: 'Umsatzsteuer', en: 'VAT' },
  Z: { de: 'Nullsatz', en: 'Zero rated' },
  AE: {
    de: 'Steuerschuldnerschaft des Leistungsempfängers (Reverse Charge)',
    en: 'Reverse charge: VAT to be accounted for by the recipient',
  },
  K: {
    de: 'Steuerfreie innergemeinschaftliche Lieferung',
    en: 'Intra-community supply exempt from VAT',
  },
  G: { de: 'Steuerfreie Ausfuhrlieferung', en: 'Export outside the EU, exempt from VAT' },
  E: { de: 'Steuerbefreit', en: 'Exempt from VAT' },
  O: { de: 'Nicht steuerbar', en: 'Not subject to VAT' },
};

export function vatCategoryName(category: string, lang: PdfLanguage): string {
  return VAT_CATEGORY[category]?.[lang] ?? category;
}

/**
 * What a VAT breakdown row is, for its label: the category alone does not tell a reduced rate from the standard
 * one (both S) nor a Kleinunternehmer (§ 19 UStG) from another exemption (both E). `vat` is an S rate that is
 * neither the standard nor a reduced rate in force for the seller's country on the date (or one the table does not
 * know): it is called what it is, VAT, and nothing more.
 */
export type VatKind =
  | 'standard'
  | 'reduced'
  | 'vat'
  | 'zero'
  | 'exempt'
  | 'smallBusiness'
  | 'reverseCharge'
  | 'intraCommunity'
  | 'export'
  | 'outsideScope'
  | 'canaryIslands'
  | 'ceutaMelilla';

/** Labels of the VAT breakdown's first column (capitalised: they start a table cell). */
const VAT_KIND: Record<VatKind, Record<PdfLanguage, string>> = {
  standard: { de: 'Regelsatz', en: 'Standard rate' },
  reduced: { de: 'Ermäßigter Satz', en: 'Reduced rate' },
  vat: { de: 'Umsatzsteuer', en: 'VAT' },
  zero: { de: 'Nullsatz', en: 'Zero rate' },
  exempt: { de: 'Steuerfrei', en: 'Exempt' },
  smallBusiness: { de: 'Kleinunternehmer (§\u00a019\u00a0UStG)', en: 'Small business (§\u00a019\u00a0UStG)' },
  reverseCharge: { de: 'Steuerschuldnerschaft des Leistungsempfängers', en: 'Reverse charge' },
  intraCommunity: { de: 'Innergemeinschaftliche Lieferung', en: 'Intra-community supply' },
  export: { de: 'Ausfuhrlieferung', en: 'Export' },
  outsideScope: { de: 'Nicht steuerbar', en: 'Not subject to VAT' },
  canaryIslands: { de: 'IGIC (Kanarische Inseln)', en: 'IGIC (Canary Islands)' },
  ceutaMelilla: { de: 'IPSI (Ceuta und Melilla)', en: 'IPSI (Ceuta and Melilla)' },
};

const KIND_OF_CATEGORY: Record<string, VatKind> = {
  Z: 'zero',
  E: 'exempt',
  AE: 'reverseCharge',
  K: 'intraCommunity',
  G: 'export',
  O: 'outsideScope',
  L: 'canaryIslands',
  M: 'ceutaMelilla',
};

/** The legal note of a Kleinunternehmer names § 19 UStG; it is the exemption reason of its category E. */
export const isSmallBusinessReason = (reason: string | undefined): boolean => /§\s*19\s+(Abs\.\s*\d+\s+)?UStG/.test(reason ?? '');

/** What the label of a VAT breakdown row is derived from. */
export interface VatRowFacts {
  /** EN 16931 VAT category (UNCL5305): S, Z, E, AE, K, G, O, L, M. */
  category: string;
  /** Percent as a decimal string ("19", "7.00"). */
  rate: string;
  /** The seller's country (ISO 3166-1 alpha-2): whose rates apply. */
  sellerCountry?: string;
  /** YYYY-MM-DD, the date of supply that decides the rate in force: delivery date, end of the service period, else the issue date. */
  date?: string;
  /** Our tax treatment of the row's lines, where known; it decides only when the rate table cannot (unknown country or date). */
  treatment?: string;
  /** BT-120 of the row's category: a § 19 UStG note makes an E row a Kleinunternehmer's. */
  exemptionReason?: string;
}

/**
 * The kind of a VAT breakdown row, from its category, its rate, the seller's country and the date of supply
 * (domain/vat-rates.ts): 19 % in Germany in 2026 is the standard rate, 7 % the reduced one, whatever treatment the
 * position was given; 16 % then is neither (`vat`). Unknown category: undefined.
 */
export function vatKind(f: VatRowFacts): VatKind | undefined {
  if (f.category === 'S') {
    const kind = rateKind(f.rate, f.sellerCountry, f.date);
    if (kind === 'standard' || kind === 'reduced') return kind;
    if (kind === 'notInForce') return 'vat';
    return f.treatment === 'reduced' ? 'reduced' : f.treatment === 'standard' ? 'standard' : 'vat';
  }
  const kind = KIND_OF_CATEGORY[f.category];
  if (kind === 'exempt' && isSmallBusinessReason(f.exemptionReason)) return 'smallBusiness';
  return kind;
}

export function vatKindName(kind: VatKind, lang: PdfLanguage): string {
  return VAT_KIND[kind][lang];
}

/**
 * The one label of a VAT breakdown row on every document (invoice, credit note, received-invoice view): "Regelsatz",
 * "Ermäßigter Satz", "Steuerfrei", "Innergemeinschaftliche Lieferung", ... An unknown category is printed as its code.
 */
export function vatLabel(f: VatRowFacts, lang: PdfLanguage): string {
  const kind = vatKind(f);
  return kind ? vatKindName(kind, lang) : f.category;
}
