/**
 * The invoice model every writer and the PDF renderer read: EN 16931 semantic model (BT/BG numbers in
 * comments), input side only. Amounts and quantities are decimal strings ("12.50", "0.125"), never
 * binary floats. Totals, line net amounts and the VAT breakdown are derived by `computeTotals`
 * (libs/money) and never supplied by the caller, so they cannot disagree with the lines.
 */

/** Our tax treatments (API `tax_treatment_id`) -> EN 16931 VAT category codes (UNCL5305). */
export type TaxTreatment =
  | 'standard' // S
  | 'reduced' // S with a reduced rate (same category; kept for labels)
  | 'reverse_charge' // AE
  | 'intra_community' // K
  | 'export_outside_eu' // G
  | 'exempt' // E
  | 'outside_scope'; // O

export type VatCategoryCode = 'S' | 'Z' | 'AE' | 'K' | 'G' | 'E' | 'O';

export interface PostalAddress {
  line1: string; // BT-35 / BT-50
  line2?: string; // BT-36 / BT-51
  city: string; // BT-37 / BT-52
  postalCode?: string; // BT-38 / BT-53
  subdivision?: string; // BT-39 / BT-54 (state, province; Italian "provincia" sigla)
  countryCode: string; // BT-40 / BT-55, ISO 3166-1 alpha-2
}

export interface Contact {
  name?: string; // BT-41 / BT-56
  phone?: string; // BT-42 / BT-57
  email?: string; // BT-43 / BT-58
}

export interface Party {
  name: string; // BT-27 / BT-44 legal or trading name
  /** For natural persons (B2C); FatturaPA and Facturae need them split. */
  firstName?: string;
  lastName?: string;
  vatId?: string; // BT-31 / BT-48 with country prefix, e.g. DE123456789
  taxNumber?: string; // BT-32 (seller tax registration, e.g. German Steuernummer)
  /** Italian Codice Fiscale or Spanish NIF when there is no VAT ID. */
  fiscalCode?: string;
  registrationId?: string; // BT-30 / BT-47 legal registration (e.g. HRB 12345)
  registrationCourt?: string; // printed in the PDF footer only
  /** BT-34 / BT-49 electronic address; scheme per CEF EAS code list (EM = e-mail, 9930 = DE VAT, 0204 = Leitweg). */
  electronicAddress?: { scheme: string; value: string };
  address: PostalAddress;
  contact?: Contact;
  /** Italian SdI recipient code (7 chars) or PEC for FatturaPA (buyer). */
  sdiCode?: string;
  pec?: string;
}

export interface InvoiceLine {
  id: string; // BT-126 line identifier
  name: string; // BT-153 item name
  description?: string; // BT-154
  quantity: string; // BT-129, up to 4 decimals
  unitCode: string; // BT-130, UN/ECE Rec 20 (HUR, C62, MON, DAY, ...)
  unitPrice: string; // BT-146 net price per unit, up to 4 decimals
  discount?: { type: 'PERCENTAGE' | 'FIXED_AMOUNT'; value: string; reason?: string }; // BG-27 line allowance
  vat: { category: VatCategoryCode; rate: string /* percent, "19" */; treatment: TaxTreatment };
  period?: { start: string; end: string }; // BG-26 (YYYY-MM-DD)
}

export interface PaymentInstructions {
  /** 58 = SEPA credit transfer; 30 = credit transfer (non-SEPA); 1 = not defined / no payment due. */
  meansCode: '58' | '30' | '1' | '97';
  iban?: string; // BT-84
  bic?: string; // BT-86
  accountName?: string; // BT-85
  remittanceInfo?: string; // BT-83
}

export type DocumentType = '380' | '381'; // commercial invoice, credit note

export interface EInvoice {
  number: string; // BT-1
  issueDate: string; // BT-2 YYYY-MM-DD
  typeCode: DocumentType; // BT-3
  currency: 'EUR'; // BT-5 (only EUR is supported for now)
  dueDate?: string; // BT-9
  buyerReference?: string; // BT-10 (Leitweg-ID for German public buyers)
  orderReference?: string; // BT-13
  /** BG-3 preceding invoice (credit notes). */
  precedingInvoice?: { number: string; issueDate?: string };
  period?: { start: string; end: string }; // BG-14 benefit / delivery period
  deliveryDate?: string; // BT-72
  notes?: string[]; // BT-22
  paymentTerms?: string; // BT-20 free text ("Payable within 14 days")
  seller: Party; // BG-4
  buyer: Party; // BG-7
  /** Where goods go (BG-13), needed for intra-community supply (K) when it differs from the buyer address. */
  deliverTo?: { name?: string; address: PostalAddress };
  lines: InvoiceLine[]; // BG-25, at least one
  payment?: PaymentInstructions; // BG-16
  /**
   * BT-113 paid amount, decimal string (optional; added by the XML writers' developer). With the full
   * total prepaid, BT-115 amount due is 0: the "no payment due" case (payment means code 1).
   */
  prepaidAmount?: string;
  /** Exemption reason per category other than S (BT-120/121); defaults come from the tax treatment table. */
  exemptions?: Partial<Record<VatCategoryCode, { reason?: string; code?: string }>>;
  /** Language of the human-readable document (PDF). */
  language: 'de' | 'en';
  /** BG-24 additional supporting documents, embedded where the syntax allows (see `embeddableAttachments`). */
  attachments?: EInvoiceAttachment[];
}

export interface EInvoiceAttachment {
  id: string; // BT-122
  filename: string; // BT-125 filename
  mimeCode: string; // BT-125 mimeCode
  description?: string; // BT-123
  content: Buffer;
}
