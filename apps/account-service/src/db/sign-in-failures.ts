import { createHash } from 'node:crypto';
import { Schema, type Connection } from 'mongoose';

interface SignInFailureDoc {
  /** SHA-256 of the e-mail address (the address itself is not kept). */
  _id: string;
  count: number;
  since: Date;
  expiresAt: Date;
}
const schema = new Schema<SignInFailureDoc>(
  {
    _id: String,
    count: { type: Number, required: true },
    since: { type: Date, required: true },
    expiresAt: { type: Date, required: true },
  },
  { versionKey: false },
);
schema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });

/**
 * Failed sign-ins per e-mail address, across every replica (one document per address, counted atomically): a
 * password guesser is stopped per account whichever address or client it comes from. Not company data: an address
 * may be a member of several companies.
 */
export function signInFailuresRepo(conn: Connection) {
  const model = conn.model<SignInFailureDoc>('SignInFailure', schema, 'sign_in_failures');
  const idOf = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
  return {
    init: () => model.init(),
    /** The failures counted within the window that ends now. */
    async count(email: string, now: Date): Promise<number> {
      const doc = await model.findOne({ _id: idOf(email), expiresAt: { $gt: now } }).lean();
      return doc?.count ?? 0;
    },
    async fail(email: string, now: Date, windowMs: number): Promise<void> {
      const id = idOf(email);
      const expiresAt = new Date(now.getTime() + windowMs);
      // a window that ran out starts again at 1
      const renewed = await model.updateOne({ _id: id, expiresAt: { $gt: now } }, { $inc: { count: 1 } });
      if (renewed.matchedCount) return;
      await model.updateOne({ _id: id }, { $set: { count: 1, since: now, expiresAt } }, { upsert: true });
    },
    clear: (email: string) => model.deleteOne({ _id: idOf(email) }).then(() => undefined),
  };
}
export type SignInFailuresRepo = ReturnType<typeof signInFailuresRepo>;
