import { Schema, type ClientSession, type Connection } from 'mongoose';
import type { CompanyId, InboundFormat, InboundContent, InboundFinding } from '@inv/contracts';
import { AS_BUILT, driverCollection } from '@inv/service-kit';

export interface StoredAttachment {
  n: number;
  key: string;
  filename: string;
  contentType: string;
  size: number;
  sha256: string;
}

/** What the reading found (absent while PROCESSING, and on a REJECTED document). */
export interface InboundReading {
  valid: boolean;
  format: InboundFormat;
  profile: string;
  version?: string;
  customizationId: string;
  documentType: 'INVOICE' | 'CREDIT_NOTE';
  findings: InboundFinding[];
  content: InboundContent;
  /** Copies of content fields the list shows and filters on (sellerVatId indexed), so a list never reads content. */
  sellerVatId?: string;
  supplierId?: number;
  duplicateOf?: number;
  ibanDiffers: boolean;
  /** The embedded attachments stored beside the original (n: place in content.attachments, from 1). */
  attachmentFiles?: StoredAttachment[];
  summary: { number?: string; issueDate?: string; sellerName?: string; payable?: string; currency?: string; errorCount: number };
}

export interface InboundDoc extends Partial<Omit<InboundReading, 'valid' | 'ibanDiffers' | 'summary'>> {
  _id: string; // `${companyId}:${id}`
  companyId: CompanyId;
  id: number;
  /** PROCESSING until its job ends: RECEIVED (read, valid or not) or REJECTED (not readable, see error). */
  status: 'PROCESSING' | 'RECEIVED' | 'REJECTED';
  valid: boolean;
  receivedAt: Date;
  filename?: string;
  mediaType: 'application/xml' | 'application/pdf';
  size: number;
  sha256: string;
  objectKey: string;
  /** The job: when processing began (last attempt) and ended, how often it was tried. */
  startedAt?: Date;
  finishedAt?: Date;
  attempts?: number;
  /** Whoever claimed the job works on it until then; after it (a crash), any replica may take the job up again. */
  leaseUntil?: Date;
  error?: { code: string; message: string };
  ibanDiffers: boolean;
  summary: InboundReading['summary'];
}

// the document is written and read as built (driver calls): its nested content is the contract's shape
const schema = new Schema<InboundDoc>({ _id: String }, { strict: false, versionKey: false });
schema.index({ companyId: 1, id: -1 }, { unique: true });
schema.index({ companyId: 1, valid: 1, id: -1 });
schema.index({ companyId: 1, status: 1, id: -1 });
schema.index({ companyId: 1, sellerVatId: 1, id: -1 });
schema.index({ companyId: 1, 'summary.number': 1, id: 1 });
// the documents waiting to be read (the work queue of processDocument): few, so a small partial index
schema.index({ companyId: 1, id: 1 }, { name: 'processing_queue', partialFilterExpression: { status: 'PROCESSING' } });

export interface InboundFilter {
  status?: InboundDoc['status'];
  valid?: boolean;
  sellerVatId?: string;
}

export function inboundDocuments(conn: Connection) {
  const model = conn.models.InboundDocument ?? conn.model<InboundDoc>('InboundDocument', schema, 'inbound_documents');
  const raw = driverCollection<InboundDoc>(model);
  const key = (companyId: CompanyId, id: number) => `${companyId}:${id}`;
  return {
    init: () => model.createIndexes(),
    insert: (doc: Omit<InboundDoc, '_id'>, session?: ClientSession) =>
      raw.insertOne({ _id: key(doc.companyId, doc.id), ...doc }, { ...AS_BUILT, session }),
    get: (companyId: CompanyId, id: number) => raw.findOne({ _id: key(companyId, id), companyId }),
    async remove(companyId: CompanyId, id: number, session?: ClientSession): Promise<InboundDoc | null> {
      return raw.findOneAndDelete({ _id: key(companyId, id), companyId }, { session });
    },
    /**
     * Takes the job of a PROCESSING document that nobody holds (no lease, or an expired one: its holder died) until
     * `now + leaseMs`, counting the attempt; null when the job has ended, the document is gone, or another holds it.
     */
    claim: (companyId: CompanyId, id: number, now: Date, leaseMs: number) =>
      raw.findOneAndUpdate(
        { _id: key(companyId, id), companyId, status: 'PROCESSING', leaseUntil: { $not: { $gt: now } } },
        { $set: { startedAt: now, leaseUntil: new Date(now.getTime() + leaseMs) }, $inc: { attempts: 1 } },
        { returnDocument: 'after' },
      ),
    /** Gives a claimed job back, to be taken up again from `retryAt` (a failure on our side worth another attempt). */
    async release(companyId: CompanyId, id: number, retryAt: Date): Promise<void> {
      await raw.updateOne({ _id: key(companyId, id), companyId, status: 'PROCESSING' }, { $set: { leaseUntil: retryAt } });
    },
    /**
     * The PROCESSING documents nobody holds, the oldest `perCompany` of each of at most `companies` companies (so
     * that one company's backlog never hides another's document): what a start or a periodic sweep queues again.
     */
    async waitingAcrossCompanies(now: Date, perCompany: number, companies: number): Promise<Array<{ companyId: CompanyId; id: number }>> {
      const free = { status: 'PROCESSING' as const, leaseUntil: { $not: { $gt: now } } };
      const ids = (await raw.distinct('companyId', free)).slice(0, companies) as CompanyId[];
      const found = await Promise.all(
        ids.map((companyId) =>
          raw.find({ ...free, companyId }, { projection: { companyId: 1, id: 1 }, sort: { id: 1 }, limit: perCompany }).toArray(),
        ),
      );
      return found.flat().map((d) => ({ companyId: d.companyId, id: d.id }));
    },
    /** PROCESSING -> RECEIVED with the reading; false when the job had already ended (or the document was deleted). */
    async finish(companyId: CompanyId, id: number, reading: InboundReading, now: Date, session: ClientSession): Promise<boolean> {
      const res = await raw.updateOne(
        { _id: key(companyId, id), companyId, status: 'PROCESSING' },
        { $set: { ...reading, status: 'RECEIVED', finishedAt: now } },
        { ...AS_BUILT, session },
      );
      return res.modifiedCount === 1;
    },
    /** PROCESSING -> REJECTED with the reason; false when the job had already ended. */
    async reject(companyId: CompanyId, id: number, error: { code: string; message: string }, now: Date, session: ClientSession) {
      const res = await raw.updateOne(
        { _id: key(companyId, id), companyId, status: 'PROCESSING' },
        { $set: { status: 'REJECTED', valid: false, error, finishedAt: now } },
        { session },
      );
      return res.modifiedCount === 1;
    },
    /** The earliest document of the same supplier (or, unmatched, seller VAT ID) with this invoice number. */
    async firstWithNumber(
      companyId: CompanyId,
      sender: { supplierId?: number; sellerVatId?: string },
      number: string,
    ): Promise<number | undefined> {
      const who =
        sender.supplierId !== undefined
          ? { supplierId: sender.supplierId }
          : sender.sellerVatId
            ? { sellerVatId: sender.sellerVatId }
            : undefined;
      if (!who) return undefined;
      const first = await raw.findOne(
        { companyId, 'summary.number': number, status: 'RECEIVED', ...who },
        { sort: { id: 1 }, projection: { id: 1 } },
      );
      return first?.id;
    },
    async list(companyId: CompanyId, filter: InboundFilter, page: number, limit: number) {
      const q: Record<string, unknown> = { companyId };
      if (filter.status) q.status = filter.status;
      if (filter.valid !== undefined) q.valid = filter.valid;
      if (filter.sellerVatId) q.sellerVatId = filter.sellerVatId;
      const [items, total] = await Promise.all([
        raw
          .find(q, { projection: { content: 0, findings: 0, attachmentFiles: 0 } })
          .sort({ id: -1 })
          .skip((page - 1) * limit)
          .limit(limit)
          .toArray(),
        raw.countDocuments(q),
      ]);
      return { items, total };
    },
  };
}
export type InboundDocuments = ReturnType<typeof inboundDocuments>;
