import { Schema, type ClientSession, type Connection } from 'mongoose';

export interface AttachmentDoc {
  _id: number; // public integer id
  companyId: string;
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
    _id: Number,
    companyId: { type: String, required: true },
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
schema.index({ companyId: 1, invoiceId: 1, _id: 1 });

/** Attachment records of invoices (the bytes are in object storage under `key`). */
export function attachmentsRepo(conn: Connection) {
  const model = conn.model<AttachmentDoc>('Attachment', schema, 'attachments');
  return {
    init: () => model.init(),
    ofInvoice: (companyId: string, invoiceId: number) => model.find({ companyId, invoiceId }).sort({ _id: 1 }).lean<AttachmentDoc[]>(),
    get: (companyId: string, invoiceId: number, id: number) => model.findOne({ _id: id, companyId, invoiceId }).lean<AttachmentDoc>(),
    /** In the transaction that also writes the audit event (session). */
    create: async (doc: AttachmentDoc, session?: ClientSession) => void (await model.create([doc], { session })),
    remove: (companyId: string, invoiceId: number, id: number, session?: ClientSession) =>
      model.deleteOne({ _id: id, companyId, invoiceId }, { session }),
    /** Count and bytes already attached (the per-invoice limits). */
    async usage(companyId: string, invoiceId: number) {
      const docs = await model.find({ companyId, invoiceId }, { size: 1 }).lean<{ size: number }[]>();
      return { count: docs.length, bytes: docs.reduce((s, d) => s + d.size, 0) };
    },
  };
}
export type AttachmentsRepo = ReturnType<typeof attachmentsRepo>;
