import { Schema, type ClientSession, type Connection } from 'mongoose';

/** An e-mail sent for an invoice, as the API lists it. */
export interface EmailDoc {
  _id: string; // email id (uuid)
  companyId: string;
  invoiceId: number;
  status: 'queued' | 'sent' | 'failed';
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  attachmentNames: string[];
  messageId?: string;
  error?: string;
  createdAt: Date;
  sentAt?: Date;
}

const schema = new Schema<EmailDoc>(
  {
    _id: String,
    companyId: { type: String, required: true },
    invoiceId: { type: Number, required: true },
    status: { type: String, required: true },
    to: [String],
    cc: [String],
    bcc: [String],
    subject: String,
    attachmentNames: [String],
    messageId: String,
    error: String,
    createdAt: { type: Date, required: true },
    sentAt: Date,
  },
  { versionKey: false },
);
schema.index({ companyId: 1, invoiceId: 1, createdAt: -1 });

/**
 * The mail module's own record of a delivery (by email id): a redelivered send command finds it sent and
 * does not send again.
 */
export interface DeliveryDoc {
  _id: string;
  status: 'sending' | 'sent' | 'failed';
  messageId: string;
  response?: string;
  updatedAt: Date;
}
const deliverySchema = new Schema<DeliveryDoc>(
  { _id: String, status: String, messageId: String, response: String, updatedAt: Date },
  { versionKey: false },
);

/** The company's own e-mail texts (absent languages use the defaults). */
export interface EmailTextsDoc {
  _id: string; // companyId
  de?: { subject: string; body: string };
  en?: { subject: string; body: string };
  updatedAt: Date;
}
const textsSchema = new Schema<EmailTextsDoc>(
  { _id: String, de: { subject: String, body: String }, en: { subject: String, body: String }, updatedAt: Date },
  { versionKey: false },
);

export function emailsRepo(conn: Connection) {
  const model = conn.model<EmailDoc>('Email', schema, 'emails');
  const deliveries = conn.model<DeliveryDoc>('MailDelivery', deliverySchema, 'mail_deliveries');
  const texts = conn.model<EmailTextsDoc>('EmailTexts', textsSchema, 'email_texts');
  return {
    init: () => Promise.all([model.init(), deliveries.init(), texts.init()]).then(() => undefined),
    ofInvoice: (companyId: string, invoiceId: number) => model.find({ companyId, invoiceId }).sort({ createdAt: -1 }).lean<EmailDoc[]>(),
    get: (companyId: string, id: string, session?: ClientSession) =>
      model
        .findOne({ _id: id, companyId })
        .session(session ?? null)
        .lean<EmailDoc>(),
    create: (doc: EmailDoc, session: ClientSession) => model.create([doc], { session }),
    /** queued -> sent | failed, once. */
    settle: (companyId: string, id: string, set: Partial<EmailDoc>, session: ClientSession) =>
      model.updateOne({ _id: id, companyId, status: 'queued' }, { $set: set }, { session }),
    texts: (companyId: string) => texts.findById(companyId).lean<EmailTextsDoc>(),
    saveTexts: (companyId: string, set: Record<string, unknown>, unset: Record<string, 1>) =>
      texts.updateOne({ _id: companyId }, { $set: set, ...(Object.keys(unset).length ? { $unset: unset } : {}) }, { upsert: true }),
    delivery: (id: string) => deliveries.findById(id).lean<DeliveryDoc>(),
    markDelivery: (id: string, set: Omit<DeliveryDoc, '_id'>) => deliveries.updateOne({ _id: id }, { $set: set }, { upsert: true }),
  };
}
export type EmailsRepo = ReturnType<typeof emailsRepo>;
