import { Schema, type ClientSession, type Connection } from 'mongoose';
import type { ExportInvoice } from '../domain/export-invoice';

/** The export's read model of one finalized invoice or credit note, fed by invoice events. */
export interface ExportInvoiceDoc extends ExportInvoice {
  _id: string; // `${companyId}:${invoiceId}`
  companyId: string;
  finalized: boolean;
  status: 'OPEN' | 'SENT' | 'PAID' | 'CANCELLED';
  paidDate?: string;
  /** The export job that first contained it (only_new leaves it out; an only_new job claims it). */
  exportedJobId?: string;
  exportedAt?: Date;
  updatedAt: Date;
}

const party = new Schema(
  {
    name: String,
    firstName: String,
    lastName: String,
    vatId: String,
    taxNumber: String,
    address: { line1: String, line2: String, city: String, postalCode: String, countryCode: String },
    contact: { name: String, phone: String, email: String },
  },
  { _id: false },
);

const schema = new Schema<ExportInvoiceDoc>(
  {
    _id: String,
    companyId: { type: String, required: true },
    invoiceId: { type: Number, required: true },
    finalized: { type: Boolean, required: true },
    number: String,
    typeCode: String,
    invoiceDate: String,
    dueDate: String,
    serviceDate: String,
    customerId: Number,
    customerNumber: Number,
    buyer: party,
    vatGroups: [{ _id: false, category: String, rate: String, treatment: String, net: String, vat: String }],
    totalGross: String,
    precedingInvoiceNumber: String,
    pdfKey: String,
    pdfFilename: String,
    status: String,
    paidDate: String,
    exportedJobId: String,
    exportedAt: Date,
    updatedAt: Date,
  },
  { versionKey: false },
);
schema.index({ companyId: 1, finalized: 1, invoiceDate: 1, number: 1 });
schema.index({ companyId: 1, exportedJobId: 1 });

/** Envelope ids of applied events: a redelivered event finds its id and changes nothing. */
const processedSchema = new Schema({ _id: String, companyId: String, type: String, processedAt: Date }, { versionKey: false });

export interface PeriodQuery {
  from: string;
  to: string;
  /** only_new: documents no earlier export contained, or that this job already claimed. */
  onlyNewFor?: string;
}

export function exportInvoicesRepo(conn: Connection) {
  const model = conn.model<ExportInvoiceDoc>('ExportInvoice', schema, 'export_invoices');
  const processed = conn.model('ProcessedEvent', processedSchema, 'processed_events');
  const idOf = (companyId: string, invoiceId: number) => `${companyId}:${invoiceId}`;
  const periodFilter = (companyId: string, q: PeriodQuery) => ({
    companyId,
    finalized: true,
    invoiceDate: { $gte: q.from, $lte: q.to },
    ...(q.onlyNewFor ? { $or: [{ exportedJobId: { $exists: false } }, { exportedJobId: q.onlyNewFor }] } : {}),
  });
  return {
    model,
    processed,
    idOf,
    get: (companyId: string, invoiceId: number, session?: ClientSession) =>
      model.findOne({ _id: idOf(companyId, invoiceId), companyId }).session(session ?? null).lean<ExportInvoiceDoc>(),
    upsert: (companyId: string, invoiceId: number, set: Partial<ExportInvoiceDoc>, setOnInsert: Partial<ExportInvoiceDoc>, session: ClientSession) =>
      model.updateOne({ _id: idOf(companyId, invoiceId), companyId }, { $set: set, $setOnInsert: setOnInsert }, { upsert: true, session }),
    /** only_new: claims every unexported document of the period for the job, atomically per document. */
    claimUnexported: (companyId: string, jobId: string, from: string, to: string, now: Date) =>
      model.updateMany(
        { companyId, finalized: true, invoiceDate: { $gte: from, $lte: to }, exportedJobId: { $exists: false } },
        { $set: { exportedJobId: jobId, exportedAt: now } },
      ),
    /** A failed only_new job gives its claims back. */
    releaseClaims: (companyId: string, jobId: string) => model.updateMany({ companyId, exportedJobId: jobId }, { $unset: { exportedJobId: 1, exportedAt: 1 } }),
    /** A finished export marks what it contained and no earlier export did. */
    markExported: (companyId: string, jobId: string, invoiceIds: number[], now: Date, session: ClientSession) =>
      model.updateMany(
        { companyId, invoiceId: { $in: invoiceIds }, exportedJobId: { $exists: false } },
        { $set: { exportedJobId: jobId, exportedAt: now } },
        { session },
      ),
    /** The period's documents in booking order (date, number), streamed from a cursor. */
    inPeriod: (companyId: string, q: PeriodQuery) => model.find(periodFilter(companyId, q)).sort({ invoiceDate: 1, number: 1, invoiceId: 1 }).lean<ExportInvoiceDoc[]>(),
    countInPeriod: (companyId: string, q: PeriodQuery) => model.countDocuments(periodFilter(companyId, q)),
  };
}
export type ExportInvoicesRepo = ReturnType<typeof exportInvoicesRepo>;
