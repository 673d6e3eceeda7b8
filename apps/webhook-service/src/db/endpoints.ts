import { Schema, type ClientSession, type Connection } from 'mongoose';
import type { CompanyId } from '@inv/contracts';
import { driverCollection } from '@inv/service-kit';

export interface SealedSecret {
  /** The secret encrypted at rest (domain/secrets.ts), never the secret itself. */
  sealed: string;
  createdAt: Date;
  /** Set on the previous secret at a rotation: it keeps signing beside the new one until then. */
  expiresAt?: Date;
}

export interface EndpointDoc {
  _id: string; // we_<24 hex>
  companyId: CompanyId;
  url: string;
  eventTypes: string[];
  description?: string;
  enabled: boolean;
  disabledReason?: 'gone' | 'failing';
  secrets: SealedSecret[];
  createdAt: Date;
  updatedAt: Date;
  secretRotatedAt?: Date;
  /** Since when every attempt failed (cleared by a delivered one): after WEBHOOK_DISABLE_AFTER_MS the endpoint is disabled. */
  failingSince?: Date;
}

const endpointSchema = new Schema<EndpointDoc>(
  {
    _id: String,
    companyId: { type: String, required: true },
    url: { type: String, required: true },
    eventTypes: [String],
    description: String,
    enabled: { type: Boolean, required: true },
    disabledReason: String,
    secrets: [{ _id: false, sealed: String, createdAt: Date, expiresAt: Date }],
    createdAt: Date,
    updatedAt: Date,
    secretRotatedAt: Date,
    failingSince: Date,
  },
  { versionKey: false },
);
endpointSchema.index({ companyId: 1, createdAt: 1 });

const lockSchema = new Schema<{ _id: string; v: number }>({ _id: String, v: Number }, { versionKey: false });

export function endpointStore(conn: Connection) {
  const model = conn.model<EndpointDoc>('WebhookEndpoint', endpointSchema, 'endpoints');
  const locks = conn.model<{ _id: string; v: number }>('WebhookCompanyLock', lockSchema, 'company_locks');
  const raw = driverCollection<EndpointDoc>(model);
  /**
   * The enabled endpoints per company, read at most once a second: every bus event and every delivery asks, and
   * a change reaches them within that second (a delivery to an endpoint deleted meanwhile finds it gone when it
   * settles: its update matches nothing). The driver's call, not mongoose's: it runs per event.
   */
  const cache = new Map<string, { at: number; value: Promise<EndpointDoc[]> }>();
  const CACHE_MS = 1000;
  return {
    model,
    init: () => Promise.all([model.init(), locks.init()]),
    enabledCached(companyId: CompanyId): Promise<EndpointDoc[]> {
      const now = Date.now();
      const hit = cache.get(companyId);
      if (hit && now - hit.at < CACHE_MS) return hit.value;
      if (cache.size > 10_000) cache.clear();
      const value = raw.find({ companyId, enabled: true }).toArray();
      cache.set(companyId, { at: now, value });
      value.catch(() => cache.delete(companyId));
      return value;
    },
    /** Forgets the cached list of a company (after a change made by this process). */
    forget: (companyId: CompanyId) => void cache.delete(companyId),
    /**
     * Writes the company's lock document in the transaction: two creations at once conflict on it (one is retried
     * and counts again), so the limit of 16 holds under concurrency, which a count alone would not guarantee.
     */
    lockCompany: (companyId: CompanyId, session: ClientSession) =>
      locks.updateOne({ _id: companyId }, { $inc: { v: 1 } }, { upsert: true, session }),
    get: (companyId: CompanyId, id: string, session?: ClientSession) =>
      model
        .findOne({ _id: id, companyId })
        .session(session ?? null)
        .lean<EndpointDoc>(),
    list: (companyId: CompanyId) => model.find({ companyId }).sort({ createdAt: 1, _id: 1 }).lean<EndpointDoc[]>(),
    count: (companyId: CompanyId, session: ClientSession) => model.countDocuments({ companyId }).session(session),
    /** The enabled endpoints of a company (the consumer fans an event out to those that subscribed). */
    enabledOf: (companyId: CompanyId, session?: ClientSession) =>
      model
        .find({ companyId, enabled: true })
        .session(session ?? null)
        .lean<EndpointDoc[]>(),
    insert: (doc: EndpointDoc, session: ClientSession) => model.create([doc], { session }),
    update: (companyId: CompanyId, id: string, set: Record<string, unknown>, unset: string[], session?: ClientSession) =>
      model.updateOne(
        { _id: id, companyId },
        { $set: set, ...(unset.length ? { $unset: Object.fromEntries(unset.map((f) => [f, 1])) } : {}) },
        { session },
      ),
    remove: (companyId: CompanyId, id: string, session: ClientSession) => model.deleteOne({ _id: id, companyId }, { session }),
  };
}
export type EndpointStore = ReturnType<typeof endpointStore>;
