import type { EInvoice, Party, PaymentInstructions, VatCategoryCode } from '@inv/einvoice';

/** Template ids accepted by the renderers (`ftl_template_id` at the API). */
export type TemplateId = number;

/**
 * The totals the PDF prints. Every amount is a decimal string ("1234.50"); the renderer only formats
 * them and never does arithmetic. Field names follow `InvoiceTotals` from `@inv/money`, so the result
 * of `computeTotals` can be passed as is (it is a structural superset of this interface).
 */
export interface PdfTotals {
  /** One entry per invoice line, same order as `invoice.lines`. */
  lines: readonly { net: string; allowance?: string }[];
  vatBreakdown: readonly { category: string; rate: string; taxableAmount: string; taxAmount: string }[];
  lineNetTotal: string; // BT-106 (= tax exclusive total, we have no document-level allowances)
  vatTotal: string; // BT-110
  taxInclusiveTotal: string; // BT-112
  prepaidAmount?: string; // BT-113
  amountDue: string; // BT-115
}

export interface PdfAttachment {
  /** `factur-x.xml` for Factur-X / ZUGFeRD, `xrechnung.xml` for XRechnung; other names are plain attachments. */
  filename: 'factur-x.xml' | 'xrechnung.xml' | string;
  xml: string;
  /** Adds the Factur-X XMP extension schema (document type INVOICE, version 1.0). */
  facturX?: boolean;
  /** Factur-X conformance level in the XMP; defaults to `EN 16931` (`XRECHNUNG` for `xrechnung.xml`). */
  conformanceLevel?: 'EN 16931' | 'XRECHNUNG' | 'EXTENDED' | 'BASIC' | 'BASIC WL' | 'MINIMUM';
}

/** A file the invoice comes with (terms, time sheets): embedded as an associated file, /AFRelationship /Supplement. */
export interface PdfSupplement {
  filename: string;
  contentType: string;
  body: Buffer;
  description?: string;
}

export interface RenderInvoiceOptions {
  template: TemplateId;
  totals: PdfTotals;
  attachment?: PdfAttachment;
  supplements?: PdfSupplement[];
  /** Big diagonal DRAFT / ENTWURF watermark on every page. */
  draft?: boolean;
  /** A test-mode invoice (docs/test-mode.md): a diagonal red TEST and a header line on every page. */
  testMode?: boolean;
  /** PNG or JPEG shown in the letterhead's logo slot (scaled to fit 60 x 22 mm). */
  logo?: Buffer;
  /** Fixed creation date (tests, reproducible output); defaults to now. */
  creationDate?: Date;
}

export type StatementEntryType = 'invoice' | 'credit_note' | 'payment' | 'discount' | 'refund' | 'adjustment' | 'reminder_fee' | 'interest';

export interface StatementEntry {
  date: string; // YYYY-MM-DD
  documentNumber: string;
  type: StatementEntryType;
  /** Decimal strings; an entry has a debit (we claim), a credit (customer paid / credited) or both empty. */
  debit?: string;
  credit?: string;
  /** Running balance after this entry (positive = customer owes us). */
  balance: string;
}

/** Customer account statement (Kontoauszug / Saldenbestätigung). */
export interface AccountStatement {
  language: 'de' | 'en';
  currency?: 'EUR';
  /** The issuing company; its registration data go into the footer. */
  company: Party;
  /** Bank account printed with the payment hint and in the footer. */
  companyPayment?: PaymentInstructions;
  customer: Party & { customerNumber?: string };
  /** Date of the statement; defaults to `to`. */
  statementDate?: string;
  from: string; // YYYY-MM-DD
  to: string; // YYYY-MM-DD
  openingBalance: string;
  entries: readonly StatementEntry[];
  closingBalance: string;
}

export interface RenderStatementOptions {
  template?: TemplateId;
  logo?: Buffer;
  /** A test twin's statement (docs/test-mode.md): marked TEST on every page. */
  testMode?: boolean;
  creationDate?: Date;
}

export type { EInvoice, Party, PaymentInstructions, VatCategoryCode };
