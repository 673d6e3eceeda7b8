import { Schema, type Connection } from 'mongoose';
import type { InvoiceFormat, InvoiceSnapshot, InvoiceStatus, TaxTreatmentId } from '@inv/contracts';

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
}

export interface StoredFile {
  key: string;
  filename: string;
  contentType: string;
  size: number;
}

export interface InvoiceDoc {
  _id: number;
  companyId: string;
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
  meta?: string | null;
  metaJson?: string | null;
  note?: string;
  positions: PositionDoc[];
  invoiceDate?: string;
  dueDate?: string;
  /** Job currently finalizing the invoice; set while a finalize job is queued or started. */
  finalizingJobId?: string;
  snapshot?: InvoiceSnapshot;
  pdf?: StoredFile;
  xml?: StoredFile;
  paidDate?: string;
  paymentMethod?: string;
  paymentReference?: string;
  precedingInvoiceId?: number;
  createdAt: Date;
  updatedAt: Date;
  finalizedAt?: Date;
  cancelledAt?: Date;
}

const file = { key: String, filename: String, contentType: String, size: Number };
const positionSchema = new Schema<PositionDoc>(
  {
    id: { type: Number, required: true },
    title: { type: String, required: true },
    description: String,
    quantity: { type: String, required: true },
    unitCode: { type: String, required: true },
    unitPrice: { type: String, required: true },
    taxRate: { type: String, required: true },
    taxTreatmentId: { type: String, required: true },
    discountType: String,
    discountValue: String,
  },
  { _id: false },
);

const schema = new Schema<InvoiceDoc>(
  {
    _id: Number,
    companyId: { type: String, required: true },
    customerId: { type: Number, required: true },
    status: { type: String, required: true },
    number: { type: String, required: true },
    typeCode: { type: String, required: true },
    format: { type: String, required: true },
    templateId: Number,
    taxTreatmentId: String,
    benefitPeriodStart: String,
    benefitPeriodEnd: String,
    buyerReference: String,
    meta: String,
    metaJson: String,
    note: String,
    positions: [positionSchema],
    invoiceDate: String,
    dueDate: String,
    finalizingJobId: String,
    snapshot: Schema.Types.Mixed,
    pdf: file,
    xml: file,
    paidDate: String,
    paymentMethod: String,
    paymentReference: String,
    precedingInvoiceId: Number,
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
    finalizedAt: Date,
    cancelledAt: Date,
  },
  { versionKey: false },
);
schema.index({ companyId: 1, number: 1 }, { unique: true });
schema.index({ companyId: 1, status: 1, _id: -1 });
schema.index({ companyId: 1, customerId: 1 });

export function invoicesRepo(conn: Connection) {
  const model = conn.model<InvoiceDoc>('Invoice', schema, 'invoices');
  return {
    model,
    /** Every read is scoped by company: another company's id is simply not found. */
    get: (companyId: string, id: number) => model.findOne({ _id: id, companyId }).lean<InvoiceDoc>(),
  };
}
export type InvoicesRepo = ReturnType<typeof invoicesRepo>;
