/**
 * The invoice model every writer and the PDF renderer read: EN 16931 semantic model (BT/BG numbers in
 * comments), input side only. Amounts and quantities are decimal strings ("12.50", "0.125"), never
 * binary floats. Totals, line net amounts and the VAT breakdown are derived by `computeTotals`
 * (libs/money) and never supplied by the caller, so they cannot disagree with the lines.
 *
 * The shape is the render snapshot contract (`InvoiceSnapshot` in libs/contracts) plus what only the
 * renderer adds: the attachments' bytes and a prepaid amount.
 */
import type { InvoiceSnapshot } from '@inv/contracts';

type SnapshotLine = InvoiceSnapshot['lines'][number];

/** Our tax treatments (API `tax_treatment_id`); their EN 16931 categories are in `taxTreatmentRules` (libs/contracts). */
export type TaxTreatment = SnapshotLine['vat']['treatment'];

/** EN 16931 VAT category codes (UNCL5305). */
export type VatCategoryCode = SnapshotLine['vat']['category'];

/** BG-5 / BG-8: line1 BT-35, line2 BT-36, city BT-37, postalCode BT-38, subdivision BT-39, countryCode BT-40 (ISO 3166-1 alpha-2). */
export type PostalAddress = InvoiceSnapshot['seller']['address'];

/** BG-9 / BG-6 contact: name BT-41, phone BT-42, email BT-43. */
export type Contact = NonNullable<InvoiceSnapshot['seller']['contact']>;

/**
 * BG-4 / BG-7: name BT-27, identifier BT-29 / BT-46 with its ICD scheme, vatId BT-31 / BT-48 (with country prefix;
 * a buyer outside the EU keeps its own tax number, e.g. NO…MVA, CHE…MWST, GB…), taxNumber BT-32,
 * registrationId BT-30 / BT-47 with registrationScheme (ICD),
 * electronicAddress BT-34 (CEF EAS scheme), firstName/lastName and fiscalCode for FatturaPA and Facturae,
 * sdiCode/pec for FatturaPA buyers, registrationCourt printed in the PDF footer only.
 */
export type Party = InvoiceSnapshot['seller'];

/**
 * BG-25: id BT-126, name BT-153, description BT-154, quantity BT-129 (up to 4 decimals), unitCode BT-130
 * (UN/ECE Rec 20), unitPrice BT-146, discount BG-27, vat.rate in percent ("19"), period BG-26.
 */
export type InvoiceLine = SnapshotLine;

/** BG-16: meansCode 58 SEPA credit transfer, 30 credit transfer, 1 not defined, 97 clearing; iban BT-84, bic BT-86, accountName BT-85, remittanceInfo BT-83. */
export type PaymentInstructions = NonNullable<InvoiceSnapshot['payment']>;

export type DocumentType = InvoiceSnapshot['typeCode']; // 380 commercial invoice, 381 credit note

export type EInvoice = Omit<InvoiceSnapshot, 'exemptions'> & {
  /**
   * BT-113 paid amount, decimal string (optional; added by the XML writers' developer). With the full
   * total prepaid, BT-115 amount due is 0: the "no payment due" case (payment means code 1).
   */
  prepaidAmount?: string;
  /** Exemption reason per category other than S (BT-120/121); defaults come from the tax treatment table. */
  exemptions?: Partial<Record<VatCategoryCode, { reason?: string; code?: string }>>;
  /** BG-24 additional supporting documents, embedded where the syntax allows (see `embeddableAttachments`). */
  attachments?: EInvoiceAttachment[];
};

export interface EInvoiceAttachment {
  id: string; // BT-122
  filename: string; // BT-125 filename
  mimeCode: string; // BT-125 mimeCode
  description?: string; // BT-123
  content: Buffer;
}
