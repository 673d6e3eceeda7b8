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
  /** only_new: the documents this job claimed (no earlier export contained them). */
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
    ...(q.onlyNewFor ? { exportedJobId: q.onlyNewFor } : {}),
  });
  return {
    model,
    processed,
    idOf,
    get: (companyId: string, invoiceId: number, session?: ClientSession) =>
      model.findOne({ _id: idOf(companyId, invoiceId), companyId }).session(session ?? null).lean<ExportInvoiceDoc>(),
    upsert: (companyId: string, invoiceId: number, set: Partial<ExportInvoiceDoc>, setOnInsert: Partial<ExportInvoiceDoc>, session: ClientSession) =>
      model.updateOne({ _id: idOf(companyId, invoiceId), companyId }, { $set: set, $setOnInsert: setOnInsert }, { upsert: true, session }),
    /**
     * Every export first claims the period's documents that no export contained yet, atomically per
     * document: two concurrent only_new exports can never both hold one. (A claim by a plain export counts
     * too: that export contains the document.)
     */
    claimUnexported: (companyId: string, jobId: string, from: string, to: string, now: Date) =>
      model.updateMany(
        { companyId, finalized: true, invoiceDate: { $gte: from, $lte: to }, exportedJobId: { $exists: false } },
        { $set: { exportedJobId: jobId, exportedAt: now } },
      ),
    /** A failed job gives its claims back. */
    releaseClaims: (companyId: string, jobId: string) => model.updateMany({ companyId, exportedJobId: jobId }, { $unset: { exportedJobId: 1, exportedAt: 1 } }),
    /** The period's documents in booking order (date, number), streamed from a cursor: never all in memory. */
    streamPeriod: (companyId: string, q: PeriodQuery): AsyncIterable<ExportInvoiceDoc> =>
      model
        .find(periodFilter(companyId, q), { buyer: 1, invoiceId: 1, number: 1, typeCode: 1, invoiceDate: 1, dueDate: 1, serviceDate: 1, customerNumber: 1, vatGroups: 1, precedingInvoiceNumber: 1, pdfKey: 1 })
        .sort({ invoiceDate: 1, number: 1, invoiceId: 1 })
        .lean<ExportInvoiceDoc>()
        .cursor({ batchSize: 500 }),
    countInPeriod: (companyId: string, q: PeriodQuery) => model.countDocuments(periodFilter(companyId, q)),
  };
}
export type ExportInvoicesRepo = ReturnType<typeof exportInvoicesRepo>;
