import { Schema, type ClientSession, type Connection } from 'mongoose';
import type { CompanyId } from '@inv/contracts';
import { driverCollection } from '@inv/service-kit';
import type { ExportInvoice } from '../domain/export-invoice';

/** The export's read model of one finalized invoice or credit note, fed by invoice events. */
export interface ExportInvoiceDoc extends ExportInvoice {
  _id: string; // `${companyId}:${invoiceId}`
  companyId: CompanyId;
  finalized: boolean;
  status: 'OPEN' | 'SENT' | 'PAID' | 'CANCELLED';
  paidDate?: string;
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
    updatedAt: Date,
  },
  { versionKey: false },
);
schema.index({ companyId: 1, finalized: 1, invoiceDate: 1, number: 1 });

/**
 * "An export contained this document": one small record per document, keyed by it, so that the first
 * export to claim a document wins (a unique _id) and claiming is an insert, not an update of the document.
 */
interface ClaimDoc {
  _id: string; // `${companyId}:${invoiceId}`
  companyId: CompanyId;
  invoiceId: number;
  jobId: string;
  claimedAt: Date;
}
const claimSchema = new Schema<ClaimDoc>(
  { _id: String, companyId: String, invoiceId: Number, jobId: String, claimedAt: Date },
  { versionKey: false },
);
claimSchema.index({ companyId: 1, jobId: 1 });

export interface PeriodQuery {
  from: string;
  to: string;
  /** only_new: only these documents (the ones this job claimed). */
  onlyIds?: ReadonlySet<number>;
}

/** An insertMany error in which every failure is a duplicate key (the document was claimed already). */
function isOnlyDuplicates(err: unknown): boolean {
  const e = err as { code?: number; writeErrors?: { code?: number }[]; insertedDocs?: unknown[] };
  if (Array.isArray(e.writeErrors) && e.writeErrors.length > 0) return e.writeErrors.every((w) => w.code === 11000);
  return e.code === 11000;
}

export function exportInvoicesRepo(conn: Connection) {
  const model = conn.model<ExportInvoiceDoc>('ExportInvoice', schema, 'export_invoices');
  const claims = conn.model<ClaimDoc>('ExportClaim', claimSchema, 'export_claims');
  const idOf = (companyId: CompanyId, invoiceId: number) => `${companyId}:${invoiceId}`;
  const periodFilter = (companyId: CompanyId, q: PeriodQuery) => ({
    companyId,
    finalized: true,
    invoiceDate: { $gte: q.from, $lte: q.to },
  });
  return {
    init: () => Promise.all([model.init(), claims.init()]).then(() => undefined),
    idOf,
    get: (companyId: CompanyId, invoiceId: number, session?: ClientSession) =>
      model
        .findOne({ _id: idOf(companyId, invoiceId), companyId })
        .session(session ?? null)
        .lean<ExportInvoiceDoc>(),
    upsert: (
      companyId: CompanyId,
      invoiceId: number,
      set: Partial<ExportInvoiceDoc>,
      setOnInsert: Partial<ExportInvoiceDoc>,
      session: ClientSession,
    ) =>
      model.updateOne({ _id: idOf(companyId, invoiceId), companyId }, { $set: set, $setOnInsert: setOnInsert }, { upsert: true, session }),
    /** `upsert` for several documents in one round trip (in order). */
    upsertMany: async (
      docs: Array<{ companyId: CompanyId; invoiceId: number; set: Partial<ExportInvoiceDoc>; setOnInsert: Partial<ExportInvoiceDoc> }>,
      session: ClientSession,
    ) =>
      void (await model.bulkWrite(
        docs.map((d) => ({
          updateOne: {
            filter: { _id: idOf(d.companyId, d.invoiceId), companyId: d.companyId },
            update: { $set: d.set, $setOnInsert: d.setOnInsert },
            upsert: true,
          },
        })),
        { session, ordered: true },
      )),
    /**
     * Every export first claims the period's documents that no export contained yet: one insert per
     * document with the document as key, unordered, so a document another export claimed first is simply
     * not this job's (two concurrent only_new exports can never both hold one; a claim by a plain export
     * counts too, as that export contains the document). Answers the ids this job holds (a redo finds its
     * earlier claims again).
     */
    async claimUnexported(companyId: CompanyId, jobId: string, from: string, to: string, now: Date): Promise<Set<number>> {
      const ids = (
        await model
          .find({ companyId, finalized: true, invoiceDate: { $gte: from, $lte: to } }, { invoiceId: 1 })
          .lean<{ invoiceId: number }[]>()
      ).map((d) => d.invoiceId);
      for (let i = 0; i < ids.length; i += 1000) {
        const batch = ids
          .slice(i, i + 1000)
          .map((invoiceId) => ({ _id: idOf(companyId, invoiceId), companyId, invoiceId, jobId, claimedAt: now }));
        try {
          // the driver's insertMany: plain records need no mongoose documents (memory stays flat)
          await driverCollection(claims).insertMany(batch, { ordered: false });
        } catch (err) {
          if (!isOnlyDuplicates(err)) throw err; // documents claimed before stay with their export
        }
      }
      const mine = await claims.find({ companyId, jobId }, { invoiceId: 1 }).lean<{ invoiceId: number }[]>();
      return new Set(mine.map((c) => c.invoiceId));
    },
    /** A failed job gives its claims back. */
    releaseClaims: (companyId: CompanyId, jobId: string) => claims.deleteMany({ companyId, jobId }),
    /** The period's documents in booking order (date, number), streamed from a cursor: never all in memory. */
    async *streamPeriod(companyId: CompanyId, q: PeriodQuery): AsyncIterable<ExportInvoiceDoc> {
      const cursor = model
        .find(periodFilter(companyId, q), {
          buyer: 1,
          invoiceId: 1,
          number: 1,
          typeCode: 1,
          invoiceDate: 1,
          dueDate: 1,
          serviceDate: 1,
          customerNumber: 1,
          vatGroups: 1,
          precedingInvoiceNumber: 1,
          pdfKey: 1,
        })
        .sort({ invoiceDate: 1, number: 1, invoiceId: 1 })
        .lean<ExportInvoiceDoc>()
        .cursor({ batchSize: 500 });
      for await (const doc of cursor) if (!q.onlyIds || q.onlyIds.has(doc.invoiceId)) yield doc;
    },
    /** Finalized documents by id (the invoices payments belong to), with what their payment rows need. */
    byIds: (companyId: CompanyId, invoiceIds: readonly number[]) =>
      model
        .find(
          { companyId, finalized: true, invoiceId: { $in: [...invoiceIds] } },
          { buyer: 1, invoiceId: 1, number: 1, typeCode: 1, invoiceDate: 1, customerNumber: 1, vatGroups: 1 },
        )
        .lean<ExportInvoiceDoc[]>(),
    countInPeriod: (companyId: CompanyId, q: PeriodQuery) => model.countDocuments(periodFilter(companyId, q)),
  };
}
export type ExportInvoicesRepo = ReturnType<typeof exportInvoicesRepo>;
