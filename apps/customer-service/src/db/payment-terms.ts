import { Schema, type Connection } from 'mongoose';

export interface PaymentTermDoc {
  _id: string; // `${companyId}:${id}`
  companyId: string;
  id: number;
  name: string;
  days: number;
}

const schema = new Schema<PaymentTermDoc>(
  { _id: String, companyId: { type: String, required: true }, id: { type: Number, required: true }, name: { type: String, required: true }, days: { type: Number, required: true } },
  { versionKey: false },
);
schema.index({ companyId: 1, id: 1 }, { unique: true });

/** Every company starts with these; account-service owns editing payment terms (not built yet). */
export const DEFAULT_PAYMENT_TERMS: readonly { id: number; name: string; days: number }[] = [
  { id: 1, name: '14 days', days: 14 },
  { id: 2, name: '30 days', days: 30 },
];

export function paymentTermsRepo(conn: Connection) {
  const model = conn.model<PaymentTermDoc>('PaymentTerm', schema, 'payment_terms');
  /** Seeds the defaults for a company the first time it is asked about (upserts: safe under concurrency). */
  const seed = async (companyId: string) => {
    if (await model.exists({ companyId })) return;
    await model.bulkWrite(
      DEFAULT_PAYMENT_TERMS.map((t) => ({
        updateOne: { filter: { _id: `${companyId}:${t.id}` }, update: { $setOnInsert: { companyId, ...t } }, upsert: true },
      })),
    );
  };
  return {
    model,
    async list(companyId: string): Promise<PaymentTermDoc[]> {
      await seed(companyId);
      return model.find({ companyId }).sort({ id: 1 }).lean<PaymentTermDoc[]>();
    },
    async exists(companyId: string, id: number): Promise<boolean> {
      await seed(companyId);
      return (await model.exists({ companyId, id })) !== null;
    },
  };
}
export type PaymentTermsRepo = ReturnType<typeof paymentTermsRepo>;
