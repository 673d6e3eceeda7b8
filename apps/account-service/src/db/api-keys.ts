import { Schema, Types, type Connection, type ClientSession } from 'mongoose';
import { liveCompanyOf, type ApiKeyMode, type CompanyId, type Role } from '@inv/contracts';

export interface ApiKeyDoc {
  _id: Types.ObjectId;
  companyId: CompanyId;
  name: string;
  prefix: string;
  hash: string;
  createdAt: Date;
  lastUsedAt?: Date;
  revokedAt?: Date;
  /** Why the key stopped working: revoked by a user, or deactivated by a downgrade from Pro. */
  revokedReason?: 'revoked' | 'plan_downgrade';
  /** The permission set the key carries (keys created before roles existed act as admin). */
  role?: Role;
  /** 0..MAX_ACTIVE_KEYS-1 while active, removed on revocation: the unique index makes the limit atomic. */
  slot?: number;
  /** test: an `ak_test_…` key, working on the company's test twin (docs/test-mode.md); absent: live. */
  mode?: ApiKeyMode;
}

const schema = new Schema<ApiKeyDoc>(
  {
    companyId: { type: String, required: true },
    name: { type: String, required: true },
    prefix: { type: String, required: true },
    hash: { type: String, required: true, unique: true },
    createdAt: { type: Date, required: true },
    lastUsedAt: Date,
    revokedAt: Date,
    revokedReason: String,
    role: String,
    slot: Number,
    mode: String,
  },
  { versionKey: false },
);
schema.index({ companyId: 1, createdAt: 1 });
// One active key per (company, slot): concurrent creations cannot exceed the slot count.
schema.index({ companyId: 1, slot: 1 }, { unique: true, partialFilterExpression: { slot: { $exists: true } } });

/** Minimum time between two last_used_at writes of one key. */
export const LAST_USED_RESOLUTION_MS = 60_000;

export function apiKeysRepo(conn: Connection) {
  const model = conn.model<ApiKeyDoc>('ApiKey', schema, 'api_keys');
  return {
    init: () => model.init(),
    insert: async (doc: Omit<ApiKeyDoc, '_id'>, session?: ClientSession) =>
      (await model.create([doc], { session }))[0]!.toObject<ApiKeyDoc>(),
    byId: (companyId: CompanyId, id: Types.ObjectId) => model.findOne({ _id: id, companyId }).lean<ApiKeyDoc>(),
    /** The key with this hash in any state (revoked too). Unscoped: a new key's hash must be unique across companies. */
    byHashAcrossCompanies: (hash: string, session?: ClientSession) =>
      model
        .findOne({ hash })
        .session(session ?? null)
        .lean<ApiKeyDoc>(),
    /** Unscoped: the key is what tells whose request it is (the gateway's verification of an API key). */
    activeByHashAcrossCompanies: (hash: string) => model.findOne({ hash, revokedAt: { $exists: false } }).lean(),
    countActive: (companyId: CompanyId) => model.countDocuments({ companyId, revokedAt: { $exists: false } }),
    /** The keys of the company, both modes (a test twin lists its live company's keys, read only). */
    list: (companyId: CompanyId) =>
      model
        .find({ companyId: liveCompanyOf(companyId) })
        .sort({ createdAt: 1 })
        .lean(),
    /** Slots held by the company's active keys. */
    usedSlots: async (companyId: CompanyId, session?: ClientSession) =>
      (
        await model
          .find({ companyId, revokedAt: { $exists: false }, slot: { $exists: true } }, { slot: 1 })
          .session(session ?? null)
          .lean()
      ).map((k) => k.slot as number),
    /** Gives slots to active keys created before slots existed (on start; keys over the limit stay without). Unscoped: a migration of every company's keys. */
    async assignMissingSlotsAcrossCompanies(maxActive: number) {
      const legacy = await model.find({ revokedAt: { $exists: false }, slot: { $exists: false } }, { companyId: 1 }).lean();
      for (const k of legacy) {
        const used = new Set(
          (await model.find({ companyId: k.companyId, revokedAt: { $exists: false }, slot: { $exists: true } }, { slot: 1 }).lean()).map(
            (d) => d.slot,
          ),
        );
        const free = Array.from({ length: maxActive }, (_, i) => i).find((i) => !used.has(i));
        if (free !== undefined)
          await model.updateOne({ _id: k._id, slot: { $exists: false } }, { $set: { slot: free } }).catch(() => undefined);
      }
    },
    revoke: (companyId: CompanyId, id: Types.ObjectId, session?: ClientSession) =>
      model
        .findOneAndUpdate(
          { _id: id, companyId, revokedAt: { $exists: false } },
          { $set: { revokedAt: new Date(), revokedReason: 'revoked' }, $unset: { slot: '' } },
          { returnDocument: 'after', session },
        )
        .lean(),
    /** Deactivates every active key of the company at once (downgrade from Pro); answers their ids. */
    async deactivateAll(companyId: CompanyId, now: Date, session: ClientSession): Promise<string[]> {
      const active = await model
        .find({ companyId, revokedAt: { $exists: false } }, { _id: 1 })
        .session(session)
        .lean();
      if (!active.length) return [];
      await model.updateMany(
        { companyId, _id: { $in: active.map((k) => k._id) } },
        { $set: { revokedAt: now, revokedReason: 'plan_downgrade' }, $unset: { slot: '' } },
        { session },
      );
      return active.map((k) => String(k._id));
    },
    /** last_used_at, written at most once per LAST_USED_RESOLUTION_MS per key (not on every request). Unscoped: by the id of a key just verified by its hash. */
    touchAcrossCompanies: (id: Types.ObjectId, now = new Date()) =>
      model.updateOne(
        { _id: id, $or: [{ lastUsedAt: { $exists: false } }, { lastUsedAt: { $lte: new Date(now.getTime() - LAST_USED_RESOLUTION_MS) } }] },
        { $set: { lastUsedAt: now } },
      ),
  };
}
export type ApiKeysRepo = ReturnType<typeof apiKeysRepo>;
