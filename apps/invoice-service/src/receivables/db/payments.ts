import type { CompanyId, PaymentMethod, PaymentSource } from '@inv/contracts';
import { companyKey } from '@inv/runtime';
import { Schema, type ClientSession, type Connection } from 'mongoose';

/** The key of a company's payment `id` (counter `payment:<companyId>`, company-keys.ts). */
export const paymentKey = companyKey;

/** A payment recorded on a finalized invoice or credit note (a refund); amounts as decimal strings with 2 decimals. */
export interface PaymentDoc {
  /** `<companyId>:<id>`. */
  _id: string;
  companyId: CompanyId;
  /** The public id: 1 for a company's first payment. */
  id: number;
  invoiceId: number;
  amount: string;
  /** Skonto granted with this payment ("0.00" without). */
  discount: string;
  date: string;
  method?: PaymentMethod;
  reference?: string;
  source: PaymentSource;
  /** Set by export.payments-exported.v1: the payment is in a DATEV export and can no longer be reversed. */
  exportedAt?: Date;
  exportJobId?: string;
  reversedAt?: Date;
  createdAt: Date;
}

const schema = new Schema<PaymentDoc>(
  {
    _id: String,
    companyId: { type: String, required: true },
    id: { type: Number, required: true },
    invoiceId: { type: Number, required: true },
    amount: { type: String, required: true },
    discount: { type: String, required: true },
    date: { type: String, required: true },
    method: String,
    reference: String,
    source: { type: String, required: true },
    exportedAt: Date,
    exportJobId: String,
    reversedAt: Date,
    createdAt: { type: Date, required: true },
  },
  { versionKey: false },
);
// an invoice's payments in order
schema.index({ companyId: 1, invoiceId: 1, id: 1 });

/** Payments; every method is scoped by company (another company's id is simply not found). */
export function paymentsRepo(conn: Connection) {
  const model = conn.model<PaymentDoc>('Payment', schema, 'payments');
  return {
    init: () => model.init(),
    get: (companyId: CompanyId, id: number, session?: ClientSession) =>
      model
        .findOne({ _id: paymentKey(companyId, id), companyId })
        .session(session ?? null)
        .lean<PaymentDoc>(),
    insert: async (doc: Omit<PaymentDoc, '_id'>, session?: ClientSession) =>
      void (await model.create([{ _id: paymentKey(doc.companyId, doc.id), ...doc }], { session })),
    /** Marks a payment of the invoice reversed, only if it is neither reversed nor exported; answers it as it is now, or null. */
    reverse: (companyId: CompanyId, invoiceId: number, id: number, now: Date, session?: ClientSession) =>
      model
        .findOneAndUpdate(
          { _id: paymentKey(companyId, id), companyId, invoiceId, reversedAt: { $exists: false }, exportedAt: { $exists: false } },
          { $set: { reversedAt: now } },
          { returnDocument: 'after', session },
        )
        .lean<PaymentDoc>(),
    /** Marks the company's payments exported (once: a payment keeps its first export). Answers how many changed. */
    markExported: async (companyId: CompanyId, ids: number[], jobId: string, now: Date, session?: ClientSession) =>
      (
        await model.updateMany(
          { _id: { $in: ids.map((id) => paymentKey(companyId, id)) }, companyId, exportedAt: { $exists: false } },
          { $set: { exportedAt: now, exportJobId: jobId } },
          { session },
        )
      ).modifiedCount,
    async listOf(companyId: CompanyId, invoiceId: number, q: { includeReversed: boolean; page: number; limit: number }) {
      const filter: Record<string, unknown> = { companyId, invoiceId };
      if (!q.includeReversed) filter.reversedAt = { $exists: false };
      const [items, total] = await Promise.all([
        model
          .find(filter)
          .sort({ id: 1 })
          .skip((q.page - 1) * q.limit)
          .limit(q.limit)
          .lean<PaymentDoc[]>(),
        model.countDocuments(filter),
      ]);
      return { items, total };
    },
  };
}
export type PaymentsRepo = ReturnType<typeof paymentsRepo>;
