import { Schema, Types, type Connection } from 'mongoose';
import type { CompanyId } from '@inv/contracts';

/** A signed-in member (the dashboard's browser): only the hash of its secret is kept. */
export interface MemberSessionDoc {
  _id: Types.ObjectId;
  companyId: CompanyId;
  memberId: Types.ObjectId;
  tokenHash: string;
  createdAt: Date;
  expiresAt: Date;
}

/** A short-lived access token of a member session (what the gateway checks like an API key): its hash, mode and expiry. */
export interface MemberAccessTokenDoc {
  _id: Types.ObjectId;
  sessionId: Types.ObjectId;
  companyId: CompanyId;
  memberId: Types.ObjectId;
  tokenHash: string;
  mode: 'live' | 'test';
  expiresAt: Date;
}

const sessionSchema = new Schema<MemberSessionDoc>(
  {
    companyId: { type: String, required: true },
    memberId: { type: Schema.Types.ObjectId, required: true },
    tokenHash: { type: String, required: true, unique: true },
    createdAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true },
  },
  { versionKey: false },
);
sessionSchema.index({ companyId: 1, memberId: 1 });
// MongoDB removes expired sessions and tokens itself (a read checks the expiry anyway)
sessionSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });

const tokenSchema = new Schema<MemberAccessTokenDoc>(
  {
    sessionId: { type: Schema.Types.ObjectId, required: true },
    companyId: { type: String, required: true },
    memberId: { type: Schema.Types.ObjectId, required: true },
    tokenHash: { type: String, required: true, unique: true },
    mode: { type: String, required: true },
    expiresAt: { type: Date, required: true },
  },
  { versionKey: false },
);
tokenSchema.index({ sessionId: 1 });
tokenSchema.index({ companyId: 1, memberId: 1 });
tokenSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });

export function memberSessionsRepo(conn: Connection) {
  const sessions = conn.model<MemberSessionDoc>('MemberSession', sessionSchema, 'member_sessions');
  const tokens = conn.model<MemberAccessTokenDoc>('MemberAccessToken', tokenSchema, 'member_access_tokens');
  return {
    init: async () => void (await Promise.all([sessions.init(), tokens.init()])),
    insertSession: async (doc: Omit<MemberSessionDoc, '_id'>) => (await sessions.create(doc)).toObject<MemberSessionDoc>(),
    insertToken: async (doc: Omit<MemberAccessTokenDoc, '_id'>) => void (await tokens.create(doc)),
    /** Unscoped: the secret is what tells whose session it is. */
    liveSessionByHashAcrossCompanies: (tokenHash: string, now: Date) =>
      sessions.findOne({ tokenHash, expiresAt: { $gt: now } }).lean<MemberSessionDoc>(),
    /** Unscoped: the token is what tells whose request it is (the gateway's verification). */
    liveTokenByHashAcrossCompanies: (tokenHash: string, now: Date) =>
      tokens.findOne({ tokenHash, expiresAt: { $gt: now } }).lean<MemberAccessTokenDoc>(),
    /** Signs a session out: it and its access tokens stop working. */
    async removeSession(companyId: CompanyId, sessionId: Types.ObjectId) {
      await tokens.deleteMany({ companyId, sessionId });
      await sessions.deleteOne({ companyId, _id: sessionId });
    },
    /** The ids of a member's sessions (to announce their end). */
    sessionIdsOfMember: async (companyId: CompanyId, memberId: Types.ObjectId) =>
      (await sessions.find({ companyId, memberId }, { _id: 1 }).lean<Pick<MemberSessionDoc, '_id'>[]>()).map((s) => s._id),
    /** Every session of a member ends (removed from the company, a new password). */
    async removeAllOfMember(companyId: CompanyId, memberId: Types.ObjectId) {
      await tokens.deleteMany({ companyId, memberId });
      await sessions.deleteMany({ companyId, memberId });
    },
  };
}
export type MemberSessionsRepo = ReturnType<typeof memberSessionsRepo>;
