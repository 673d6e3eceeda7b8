import { createHash } from 'node:crypto';
import { Schema, Types, type ClientSession, type Connection } from 'mongoose';
import type { CompanyId } from '@inv/contracts';

/** An open password reset of one member: the nonce its token is derived from and the token's hash, never the token. */
export interface PasswordResetDoc {
  _id: Types.ObjectId;
  companyId: CompanyId;
  memberId: Types.ObjectId;
  nonce: string;
  tokenHash: string;
  createdAt: Date;
  expiresAt: Date;
}

interface ResetRequestsDoc {
  /** SHA-256 of the e-mail address (the address itself is not kept). */
  _id: string;
  count: number;
  expiresAt: Date;
}

const resetSchema = new Schema<PasswordResetDoc>(
  {
    companyId: { type: String, required: true },
    memberId: { type: Schema.Types.ObjectId, required: true },
    nonce: { type: String, required: true },
    tokenHash: { type: String, required: true, unique: true },
    createdAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true },
  },
  { versionKey: false },
);
resetSchema.index({ companyId: 1, memberId: 1 });
resetSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });

const requestsSchema = new Schema<ResetRequestsDoc>(
  { _id: String, count: { type: Number, required: true }, expiresAt: { type: Date, required: true } },
  { versionKey: false },
);
requestsSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });

/** Password resets (one document per e-mail sent) and the reset requests counted per address, on every replica. */
export function passwordResetsRepo(conn: Connection) {
  const resets = conn.model<PasswordResetDoc>('PasswordReset', resetSchema, 'password_resets');
  const requests = conn.model<ResetRequestsDoc>('PasswordResetRequests', requestsSchema, 'password_reset_requests');
  const idOf = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
  return {
    init: async () => void (await Promise.all([resets.init(), requests.init()])),
    /** Counts one request for the address (atomically) and answers how many the window holds now, this one included. */
    async countRequest(email: string, now: Date, windowMs: number): Promise<number> {
      const live = { $gt: ['$expiresAt', now] };
      // one atomic write: a window that ran out (or none) starts again at 1
      const bump = () =>
        requests
          .findOneAndUpdate(
            { _id: idOf(email) },
            [
              {
                $set: {
                  count: { $cond: [live, { $add: ['$count', 1] }, 1] },
                  expiresAt: { $cond: [live, '$expiresAt', new Date(now.getTime() + windowMs)] },
                },
              },
            ],
            { upsert: true, returnDocument: 'after', updatePipeline: true },
          )
          .lean<ResetRequestsDoc>();
      try {
        return (await bump())!.count;
      } catch (err) {
        // two first requests at once: one inserted the document, the other counts on it
        if ((err as { code?: number }).code !== 11000) throw err;
        return (await bump())!.count;
      }
    },
    insert: async (doc: Omit<PasswordResetDoc, '_id'>) => (await resets.create(doc)).toObject<PasswordResetDoc>(),
    /** Uses an open reset once: it is gone in the same write. Unscoped: the token names the member. */
    takeAcrossCompanies: (tokenHash: string, now: Date, session?: ClientSession) =>
      resets.findOneAndDelete({ tokenHash, expiresAt: { $gt: now } }, { session }).lean<PasswordResetDoc>(),
    /** Every other open reset of the member stops working (its password was just set). */
    removeAllOfMember: (companyId: CompanyId, memberId: Types.ObjectId, session?: ClientSession) =>
      resets.deleteMany({ companyId, memberId }, { session }).then(() => undefined),
  };
}
export type PasswordResetsRepo = ReturnType<typeof passwordResetsRepo>;
