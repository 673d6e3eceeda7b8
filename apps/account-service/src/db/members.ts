import { Schema, Types, type ClientSession, type Connection } from 'mongoose';
import { liveCompanyOf, type CompanyId } from '@inv/contracts';
import type { Role } from '@inv/contracts';

export interface MemberDoc {
  _id: Types.ObjectId;
  companyId: CompanyId;
  email: string;
  role: Role;
  /** invited: the invitation is not accepted yet; active: the member has set a password (or signed in). */
  status: 'invited' | 'active';
  /** argon2id hash (web-app sign-in); absent until the member sets a password. */
  passwordHash?: string;
  /** SHA-256 of the single-use invitation token, while the invitation is open. */
  invitationHash?: string;
  /**
   * What the token is derived from with the configured key when the e-mail is sent (domain/invitation.ts); not a
   * secret without the key. Absent for invitations made before tokens were derived (their e-mail went out then).
   */
  invitationNonce?: string;
  invitationExpiresAt?: Date;
  createdAt: Date;
  updatedAt?: Date;
}

const schema = new Schema<MemberDoc>(
  {
    companyId: { type: String, required: true },
    email: { type: String, required: true },
    role: { type: String, enum: ['owner', 'admin', 'member', 'viewer'], required: true },
    status: { type: String, enum: ['invited', 'active'], required: true },
    passwordHash: String,
    invitationHash: String,
    invitationNonce: String,
    invitationExpiresAt: Date,
    createdAt: { type: Date, required: true },
    updatedAt: Date,
  },
  { versionKey: false },
);
schema.index({ companyId: 1, email: 1 }, { unique: true });
schema.index({ invitationHash: 1 }, { unique: true, partialFilterExpression: { invitationHash: { $type: 'string' } } });
schema.index({ email: 1 });

export function membersRepo(conn: Connection) {
  const model = conn.model<MemberDoc>('Member', schema, 'members');
  return {
    init: () => model.init(),
    insert: async (doc: Omit<MemberDoc, '_id'>, session?: ClientSession) =>
      (await model.create([doc], { session }))[0]!.toObject<MemberDoc>(),
    /** The members; a test twin's are its live company's (read only, docs/test-mode.md). */
    list: (companyId: CompanyId, session?: ClientSession) =>
      model
        .find({ companyId: liveCompanyOf(companyId) })
        .sort({ createdAt: 1 })
        .session(session ?? null)
        .lean<MemberDoc[]>(),
    count: (companyId: CompanyId) => model.countDocuments({ companyId }),
    byId: (companyId: CompanyId, id: Types.ObjectId, session?: ClientSession) =>
      model
        .findOne({ _id: id, companyId })
        .session(session ?? null)
        .lean<MemberDoc>(),
    byEmail: (companyId: CompanyId, email: string, session?: ClientSession) =>
      model
        .findOne({ companyId, email })
        .session(session ?? null)
        .lean<MemberDoc>(),
    /** Open invitations of the company whose e-mail is still to be rendered (the owner's, at the company's creation). */
    openInvitations: (companyId: CompanyId, now: Date) =>
      model
        .find({ companyId, status: 'invited', invitationNonce: { $type: 'string' }, invitationExpiresAt: { $gt: now } })
        .lean<MemberDoc[]>(),
    /** Every membership of an e-mail address. Unscoped: sign-in comes before a company is known (it picks one). */
    allByEmailAcrossCompanies: (email: string) => model.find({ email, status: 'active' }).lean<MemberDoc[]>(),
    /** Unscoped: the invitation token is what names the company (the invitation page, before sign-in). */
    byInvitationHashAcrossCompanies: (hash: string) => model.findOne({ invitationHash: hash }).lean<MemberDoc>(),
    /** Owners of the company (the last one cannot leave or lose the role). */
    countOwners: (companyId: CompanyId, session?: ClientSession) =>
      model.countDocuments({ companyId, role: 'owner' }).session(session ?? null),
    setRole: (companyId: CompanyId, id: Types.ObjectId, role: Role, session: ClientSession) =>
      model
        .findOneAndUpdate({ _id: id, companyId }, { $set: { role, updatedAt: new Date() } }, { returnDocument: 'after', session })
        .lean<MemberDoc>(),
    remove: (companyId: CompanyId, id: Types.ObjectId, session: ClientSession) =>
      model.findOneAndDelete({ _id: id, companyId }, { session }).lean<MemberDoc>(),
    /** Accepts an open invitation once: the token stops working in the same write. Unscoped: the token names the company. */
    acceptInvitationAcrossCompanies: (hash: string, passwordHash: string, now: Date, session?: ClientSession) =>
      model
        .findOneAndUpdate(
          { invitationHash: hash, invitationExpiresAt: { $gt: now } },
          {
            $set: { status: 'active', passwordHash, updatedAt: now },
            $unset: { invitationHash: '', invitationNonce: '', invitationExpiresAt: '' },
          },
          { returnDocument: 'after', session },
        )
        .lean<MemberDoc>(),
    /** A new password of an active member (a reset). */
    setPasswordHash: (companyId: CompanyId, id: Types.ObjectId, passwordHash: string, now: Date, session: ClientSession) =>
      model.updateOne({ _id: id, companyId, status: 'active' }, { $set: { passwordHash, updatedAt: now } }, { session }),
    setPassword: (companyId: CompanyId, id: Types.ObjectId, passwordHash: string) =>
      model.updateOne({ _id: id, companyId }, { $set: { passwordHash, status: 'active', updatedAt: new Date() } }),
  };
}
export type MembersRepo = ReturnType<typeof membersRepo>;
