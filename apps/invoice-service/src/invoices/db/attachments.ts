import type { CompanyId } from '@inv/contracts';
import { Schema, type ClientSession, type Connection } from 'mongoose';
import { companyKey, migrateToCompanyKeys } from '@inv/runtime';
import { attachmentCounter } from '../../platform';

const attachmentKey = companyKey;

export interface AttachmentDoc {
  /** `<companyId>:<id>`: ids are numbered per company (company-keys.ts). */
  _id: string;
  companyId: CompanyId;
  /** The public id: 1 for a company's first attachment. */
  id: number;
  invoiceId: number;
  filename: string;
  contentType: string;
  size: number;
  sha256: string;
  description?: string;
  key: string;
  createdAt: Date;
}

const schema = new Schema<AttachmentDoc>(
  {
    _id: String,
    companyId: { type: String, required: true },
    id: { type: Number, required: true },
    invoiceId: { type: Number, required: true },
    filename: { type: String, required: true },
    contentType: { type: String, required: true },
    size: { type: Number, required: true },
    sha256: { type: String, required: true },
    description: String,
    key: { type: String, required: true },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false },
);
schema.index({ companyId: 1, invoiceId: 1, id: 1 });

/**
 * What an invoice's attachments hold, kept beside them: `_id` is `<companyId>:<invoiceId>`. Every attachment
 * record is written in the same transaction as the conditional `$inc` that reserves its count and bytes here,
 * and removed with the `$inc` that gives them back, so the per-invoice limits hold under any concurrency
 * (a count of the records followed by an insert let 30 parallel uploads store 24).
 */
export interface AttachmentUsageDoc {
  _id: string;
  companyId: CompanyId;
  invoiceId: number;
  count: number;
  bytes: number;
}
const usageSchema = new Schema<AttachmentUsageDoc>(
  { _id: String, companyId: String, invoiceId: Number, count: Number, bytes: Number },
  { versionKey: false },
);
const usageId = (companyId: CompanyId, invoiceId: number) => `${companyId}:${invoiceId}`;

/** Attachment records of invoices (the bytes are in object storage under `key`). */
export function attachmentsRepo(conn: Connection) {
  const model = conn.model<AttachmentDoc>('Attachment', schema, 'attachments');
  const usageModel = conn.model<AttachmentUsageDoc>('AttachmentUsage', usageSchema, 'attachment_usage');
  /** Count and bytes of the records themselves (before the usage document exists). */
  const counted = async (companyId: CompanyId, invoiceId: number) => {
    const docs = await model.find({ companyId, invoiceId }, { size: 1 }).lean<{ size: number }[]>();
    return { count: docs.length, bytes: docs.reduce((s, d) => s + d.size, 0) };
  };
  return {
    /** The indexes, and attachments stored before ids were per company brought to the current shape (company-keys.ts). */
    init: async () => {
      await Promise.all([model.init(), usageModel.init()]);
      await migrateToCompanyKeys(conn, { collection: 'attachments', counter: attachmentCounter });
    },
    ofInvoice: (companyId: CompanyId, invoiceId: number) => model.find({ companyId, invoiceId }).sort({ id: 1 }).lean<AttachmentDoc[]>(),
    get: (companyId: CompanyId, invoiceId: number, id: number) =>
      model.findOne({ _id: attachmentKey(companyId, id), companyId, invoiceId }).lean<AttachmentDoc>(),
    /** In the transaction that also writes the audit event (session). */
    create: async (doc: Omit<AttachmentDoc, '_id'>, session?: ClientSession) =>
      void (await model.create([{ _id: attachmentKey(doc.companyId, doc.id), ...doc }], { session })),
    remove: (companyId: CompanyId, invoiceId: number, id: number, session?: ClientSession) =>
      model.deleteOne({ _id: attachmentKey(companyId, id), companyId, invoiceId }, { session }),
    /** Count and bytes attached now (for an early answer; the limits are held by `reserve`). */
    async usage(companyId: CompanyId, invoiceId: number): Promise<{ count: number; bytes: number }> {
      const doc = await usageModel.findById(usageId(companyId, invoiceId)).lean<AttachmentUsageDoc>();
      return doc ? { count: doc.count, bytes: doc.bytes } : counted(companyId, invoiceId);
    },
    /**
     * Creates the invoice's usage document from its records if it has none yet (invoices with attachments from
     * before it existed). Records are only written together with a reservation in that document, so what is
     * counted here cannot grow before the document exists; a concurrent creation of it wins and this one is dropped.
     */
    async ensureUsage(companyId: CompanyId, invoiceId: number): Promise<void> {
      const _id = usageId(companyId, invoiceId);
      if (await usageModel.exists({ _id })) return;
      const now = await counted(companyId, invoiceId);
      try {
        await usageModel.updateOne({ _id }, { $setOnInsert: { companyId, invoiceId, ...now } }, { upsert: true });
      } catch (err) {
        if ((err as { code?: number }).code !== 11000) throw err; // two first uploads at once: the other created it
      }
    },
    /**
     * Reserves one attachment of `size` bytes if the invoice then stays within `limits` (one conditional `$inc`,
     * inside the transaction that writes the record). Answers the usage that refused it otherwise.
     */
    async reserve(
      companyId: CompanyId,
      invoiceId: number,
      size: number,
      limits: { count: number; bytes: number },
      session: ClientSession,
    ): Promise<{ ok: true } | { ok: false; count: number; bytes: number }> {
      const _id = usageId(companyId, invoiceId);
      const res = await usageModel.updateOne(
        { _id, count: { $lt: limits.count }, bytes: { $lte: limits.bytes - size } },
        { $inc: { count: 1, bytes: size } },
        { session },
      );
      if (res.matchedCount === 1) return { ok: true };
      const doc = await usageModel.findById(_id).session(session).lean<AttachmentUsageDoc>();
      if (!doc) throw new Error(`attachment usage of ${_id} missing (ensureUsage first)`);
      return { ok: false, count: doc.count, bytes: doc.bytes };
    },
    /** Gives back what a removed record reserved (same transaction as the removal). */
    release: (companyId: CompanyId, invoiceId: number, size: number, session: ClientSession) =>
      usageModel.updateOne({ _id: usageId(companyId, invoiceId) }, { $inc: { count: -1, bytes: -size } }, { session }),
  };
}
export type AttachmentsRepo = ReturnType<typeof attachmentsRepo>;
