import type { CompanyId } from '@inv/contracts';
import { Schema, type ClientSession, type Connection } from 'mongoose';

/** An e-mail sent for an invoice, as the API lists it. */
export interface EmailDoc {
  _id: string; // email id (uuid)
  companyId: CompanyId;
  invoiceId: number;
  /** unconfirmed: handed to the SMTP server in full, its answer never seen (at most once: not sent again). */
  status: 'queued' | 'sent' | 'failed' | 'unconfirmed';
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
 * The mail module's own record of a delivery (by email id), written before anything goes to the SMTP server:
 * - `sending`: a handler holds it (`claim`) and may talk to the server; the end-of-data mark, which alone makes a
 *   server accept a message, is not sent yet. A redelivered command takes it over (new claim): the old holder, if
 *   alive, finds its claim gone at the mark and drops the connection, so the server discards its copy.
 * - `committing`: the holder is about to send (or sent) the end-of-data mark. Found so by anyone but its holder, the
 *   outcome is unknown: it becomes `unconfirmed` and is never sent again (at most once).
 * - `deferred`: the server answered 4xx (or could not be reached) before accepting: safe to send again.
 * - `sent`, `failed`, `unconfirmed`: final; a redelivered command reports them again.
 * A `sending` record without `claim` was written by the version before claims, which held `sending` through the
 * whole session: it is treated as `committing`.
 */
export interface DeliveryDoc {
  _id: string;
  status: 'sending' | 'committing' | 'deferred' | 'sent' | 'failed' | 'unconfirmed';
  messageId: string;
  claim?: string;
  response?: string;
  updatedAt: Date;
}
const deliverySchema = new Schema<DeliveryDoc>(
  { _id: String, status: String, messageId: String, claim: String, response: String, updatedAt: Date },
  { versionKey: false },
);

/** A daily count of e-mail (per company: messages; per invoice: sends), gone two days after its day. */
interface EmailCountDoc {
  _id: string;
  n: number;
  expiresAt: Date;
}
const countSchema = new Schema<EmailCountDoc>({ _id: String, n: Number, expiresAt: Date }, { versionKey: false });
countSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });

const isDuplicateKey = (err: unknown) => (err as { code?: number } | null)?.code === 11000;

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
  const counts = conn.model<EmailCountDoc>('EmailCount', countSchema, 'email_counts');
  return {
    init: () => Promise.all([model.init(), deliveries.init(), texts.init(), counts.init()]).then(() => undefined),
    ofInvoice: (companyId: CompanyId, invoiceId: number) => model.find({ companyId, invoiceId }).sort({ createdAt: -1 }).lean<EmailDoc[]>(),
    get: (companyId: CompanyId, id: string, session?: ClientSession) =>
      model
        .findOne({ _id: id, companyId })
        .session(session ?? null)
        .lean<EmailDoc>(),
    create: (doc: EmailDoc, session: ClientSession) => model.create([doc], { session }),
    /**
     * queued -> sent | failed | unconfirmed, once; unconfirmed -> sent | failed when the holder of the delivery
     * learnt the answer after all.
     */
    settle: (companyId: CompanyId, id: string, set: Partial<EmailDoc> & Pick<EmailDoc, 'status'>, session: ClientSession) =>
      model.updateOne(
        { _id: id, companyId, status: { $in: set.status === 'unconfirmed' ? ['queued'] : ['queued', 'unconfirmed'] } },
        set.status === 'sent' ? { $set: set, $unset: { error: 1 } } : { $set: set },
        { session },
      ),
    texts: (companyId: CompanyId) => texts.findById(companyId).lean<EmailTextsDoc>(),
    saveTexts: (companyId: CompanyId, set: Record<string, unknown>, unset: Record<string, 1>) =>
      texts.updateOne({ _id: companyId }, { $set: set, ...(Object.keys(unset).length ? { $unset: unset } : {}) }, { upsert: true }),
    // Unscoped by design, the delivery records (mail_deliveries) and the daily counts below: a delivery is keyed by
    // the e-mail id alone (a random uuid for an invoice e-mail, a fixed id per invitation that account-service sends
    // through this module), which no two companies share; a count's key names its company (send-invoice-email.ts).
    // Their names say so (`...AcrossCompanies`), like every method of this service's repositories that is not scoped by company.
    deliveryAcrossCompanies: (id: string) => deliveries.findById(id).lean<DeliveryDoc>(),
    /**
     * Takes the delivery for a new send under `claim`: when there is none yet, or it is `sending` (taken over from a
     * holder that died or lost its command) or `deferred`. False when it is in any other state (read it again).
     */
    async claimDeliveryAcrossCompanies(id: string, claim: string, messageId: string, now: Date): Promise<boolean> {
      try {
        await deliveries.updateOne(
          { _id: id, status: { $in: ['sending', 'deferred'] }, claim: { $exists: true } },
          { $set: { status: 'sending', claim, messageId, updatedAt: now } },
          { upsert: true },
        );
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false; // it exists in another state (or another claim inserted it first)
        throw err;
      }
    },
    /** sending -> committing, only while `claim` still holds it: the one point after which a send is never repeated. */
    commitDeliveryAcrossCompanies: async (id: string, claim: string, now: Date) =>
      (await deliveries.updateOne({ _id: id, claim, status: 'sending' }, { $set: { status: 'committing', updatedAt: now } }))
        .matchedCount === 1,
    /** The holder's outcome (sent, failed, deferred, unconfirmed); also over an `unconfirmed` set while it waited. */
    finishDeliveryAcrossCompanies: async (id: string, claim: string, set: Pick<DeliveryDoc, 'status' | 'response'>, now: Date) =>
      (
        await deliveries.updateOne(
          { _id: id, claim, status: { $in: ['sending', 'committing', 'unconfirmed'] } },
          { $set: { ...set, updatedAt: now } },
        )
      ).matchedCount === 1,
    /** committing (or a claimless sending of the version before) -> unconfirmed; answers the record as it is now. */
    async resolveUncertainAcrossCompanies(id: string, response: string, now: Date): Promise<DeliveryDoc | null> {
      await deliveries.updateOne(
        { _id: id, $or: [{ status: 'committing' }, { status: 'sending', claim: { $exists: false } }] },
        { $set: { status: 'unconfirmed', response, updatedAt: now } },
      );
      return deliveries.findById(id).lean<DeliveryDoc>();
    },
    /**
     * Adds `amount` to the daily count `key` when it stays within `limit` (atomic: one conditional update; parallel
     * requests never pass the limit together). False when it would exceed it.
     */
    async countWithinAcrossCompanies(key: string, amount: number, limit: number, expiresAt: Date): Promise<boolean> {
      if (amount > limit) return false;
      const within = { _id: key, n: { $lte: limit - amount } };
      try {
        await counts.updateOne(within, { $inc: { n: amount }, $setOnInsert: { expiresAt } }, { upsert: true });
        return true;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        // the count exists and is over the bound, or a parallel first count inserted it meanwhile: once more without insert
        return (await counts.updateOne(within, { $inc: { n: amount } })).matchedCount === 1;
      }
    },
    /** Gives back what countWithinAcrossCompanies added (the request did not go through after all). */
    uncountAcrossCompanies: (key: string, amount: number) => counts.updateOne({ _id: key }, { $inc: { n: -amount } }).then(() => undefined),
  };
}
export type EmailsRepo = ReturnType<typeof emailsRepo>;
