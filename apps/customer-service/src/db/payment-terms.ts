import { Schema, type Connection } from 'mongoose';
import type { CompanyId } from '@inv/contracts';

/**
 * The company's payment terms as account-service (their owner) last announced them: customer-service needs
 * them to check a customer's payment_term_id without a round trip. One document per company, replaced as a
 * whole by newer announcements (`rev` orders them; an older one arriving late changes nothing).
 */
export interface PaymentTermSetDoc {
  _id: string; // companyId
  rev: number;
  terms: { id: number; name: string; days: number }[];
}

const schema = new Schema<PaymentTermSetDoc>(
  { _id: String, rev: { type: Number, required: true }, terms: [{ _id: false, id: Number, name: String, days: Number }] },
  { versionKey: false },
);

/** What every company has until it changes its terms (the same defaults account-service starts with). */
export const DEFAULT_PAYMENT_TERMS: readonly { id: number; name: string; days: number }[] = [
  { id: 1, name: '14 days', days: 14 },
  { id: 2, name: '30 days', days: 30 },
];

export function paymentTermsRepo(conn: Connection) {
  const model = conn.model<PaymentTermSetDoc>('PaymentTermSet', schema, 'payment_term_sets');
  const list = async (companyId: CompanyId) =>
    (await model.findById(companyId).lean<PaymentTermSetDoc>())?.terms ?? DEFAULT_PAYMENT_TERMS.map((t) => ({ ...t }));
  return {
    init: () => model.init(),
    list,
    async exists(companyId: CompanyId, id: number): Promise<boolean> {
      return (await list(companyId)).some((t) => t.id === id);
    },
    /** Applies an announcement if it is newer than what is stored (idempotent: the same one twice changes nothing). */
    async apply(companyId: CompanyId, rev: number, terms: PaymentTermSetDoc['terms']): Promise<void> {
      try {
        await model.updateOne({ _id: companyId, rev: { $lt: rev } }, { $set: { rev, terms } }, { upsert: true });
      } catch (err) {
        // the upsert collided with a stored document whose rev is not lower: the announcement is stale
        if ((err as { code?: number }).code !== 11000) throw err;
      }
    },
  };
}
export type PaymentTermsRepo = ReturnType<typeof paymentTermsRepo>;
