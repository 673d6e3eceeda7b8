/**
 * An invoice (or credit note) as invoice-service keeps it: the document type the use cases and the pure rules read,
 * independent of how it is stored (db/invoices.ts holds the schema and the repository).
 */
import type { CompanyId, InvoiceFormat, InvoiceSnapshot, InvoiceStatus, TaxTreatmentId } from '@inv/contracts';
import type { OutboxEntry } from '@inv/outbox';

/** A position as stored: quantities, prices and rates as decimal strings (never floats, never Decimal128). */
export interface PositionDoc {
  id: number;
  title: string;
  description?: string;
  quantity: string;
  unitCode: string;
  unitPrice: string;
  /** Decimal fraction: "0.19". */
  taxRate: string;
  taxTreatmentId: TaxTreatmentId;
  discountType?: 'PERCENTAGE' | 'FIXED_AMOUNT';
  discountValue?: string;
  /** The product the position was filled from (its values are copied: later product edits change nothing here). */
  productId?: number;
}

export interface StoredFile {
  key: string;
  filename: string;
  contentType: string;
  size: number;
}

export interface InvoiceDoc {
  /** `<companyId>:<id>` (invoiceKey): ids are numbered per company, so the id alone is not unique. */
  _id: string;
  companyId: CompanyId;
  /** The public id: 1 for a company's first invoice (counter `invoice:<companyId>`). */
  id: number;
  customerId: number;
  status: InvoiceStatus;
  number: string;
  typeCode: '380' | '381';
  format: InvoiceFormat;
  templateId?: number;
  taxTreatmentId?: TaxTreatmentId;
  benefitPeriodStart?: string;
  benefitPeriodEnd?: string;
  buyerReference?: string;
  /** `meta` as the client sent it: a string here, or a JSON object serialized into metaJson. */
  /** Buyer name as last seen (at creation, customer change and finalization), for the list's `q` search. */
  customerName?: string;
  /** Gross total in cents, kept with the positions, for sorting the list by amount. */
  grossCents?: number;
  meta?: string | null;
  metaJson?: string | null;
  note?: string;
  positions: PositionDoc[];
  invoiceDate?: string;
  dueDate?: string;
  /** Job currently finalizing the invoice; set while a finalize job is queued or started. */
  finalizingJobId?: string;
  /**
   * `false` from creation until an attachment upload starts (then `true`, before the attachment is stored), so
   * finalization need not look for attachments of a draft that never had one. Absent on drafts made
   * before the field or by copying: then they are looked up, as always.
   */
  attachmentsUploaded?: boolean;
  snapshot?: InvoiceSnapshot;
  pdf?: StoredFile;
  xml?: StoredFile;
  /** Messages announcing a change of this draft, written with it, until the relay has published them (libs/outbox pending.ts). */
  pendingMessages?: OutboxEntry[];
  paidDate?: string;
  paymentMethod?: string;
  paymentReference?: string;
  /** Payments (payments.ts): cents paid and Skonto granted so far (not reversed); absent until the first payment. */
  paidCents?: number;
  discountCents?: number;
  /** The status a document was in when payments made it PAID (a reversal returns it there). */
  paidFromStatus?: InvoiceStatus;
  precedingInvoiceId?: number;
  /**
   * An invoice: the gross cents its credit notes have taken (finalized or being finalized), never above its
   * grossCents (reserveCredit). Absent until its first credit note is finalized.
   */
  creditedCents?: number;
  /** A credit note: the gross cents it took from its invoice's creditedCents at finalization (given back if that fails). */
  creditReservedCents?: number;
  /**
   * An invoice: the cents of its FINALIZED credit notes applied to it (each one's part that the invoice still owed,
   * domain/payments.ts appliedCreditCents; creditedCents counts whole gross amounts, also of those being finalized).
   * They lower its open amount (domain/payments.ts); added once per credit note, in the transaction that finalizes it
   * (usecases/settle-credit-note.ts). Absent until its first credit note is finalized.
   * A credit note: the part of its gross applied to its invoice when it was finalized (what the invoice still owed, at
   * most the gross; domain/payments.ts appliedCreditCents): it lowers the credit note's own open amount the same way,
   * the rest is a refund owed. Absent: nothing applied.
   */
  creditSettledCents?: number;
  createdAt: Date;
  updatedAt: Date;
  finalizedAt?: Date;
  cancelledAt?: Date;
}
