import { Schema, Types, type ClientSession, type Connection } from 'mongoose';
import type { CompanyId } from '@inv/contracts';
import type { AnyBulkWriteOperation } from 'mongodb';
import { driverCollection } from '@inv/service-kit';
import { coalesced } from './coalesce';

export interface Attempt {
  at: Date;
  httpStatus?: number;
  durationMs: number;
  responseExcerpt?: string;
  error?: string;
}

export interface DeliveryDoc {
  _id: Types.ObjectId;
  companyId: CompanyId;
  endpointId: string;
  eventId: string;
  eventType: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAttemptAt?: Date;
  /**
   * A worker that picked the delivery holds it until then (in MongoDB, not in memory): a worker killed mid-delivery
   * leaves it pending, and another (or the restarted one) takes it once the lease expired. It then sends the same
   * payload under the same webhook-id, so the receiver can drop the duplicate.
   */
  leaseUntil?: Date;
  leaseOwner?: string;
  attemptLog: Attempt[];
  createdAt: Date;
  deliveredAt?: Date;
}

/** Attempts kept per delivery in its log (the newest). */
export const ATTEMPT_LOG_SIZE = 20;

const deliverySchema = new Schema<DeliveryDoc>(
  {
    companyId: { type: String, required: true },
    endpointId: { type: String, required: true },
    eventId: { type: String, required: true },
    eventType: String,
    status: { type: String, required: true },
    attempts: Number,
    nextAttemptAt: Date,
    leaseUntil: Date,
    leaseOwner: String,
    attemptLog: [{ _id: false, at: Date, httpStatus: Number, durationMs: Number, responseExcerpt: String, error: String }],
    createdAt: Date,
    deliveredAt: Date,
  },
  { versionKey: false },
);
// the worker's query: due pending deliveries in order of their time
deliverySchema.index({ status: 1, nextAttemptAt: 1 });
// the delivery log of an endpoint, newest first
deliverySchema.index({ companyId: 1, endpointId: 1, _id: -1 });
/** How long the delivery log keeps a delivery (and replay can reach back): longer than the 3 days of retries. */
export const DELIVERY_RETENTION_DAYS = 30;
deliverySchema.index({ createdAt: 1 }, { expireAfterSeconds: DELIVERY_RETENTION_DAYS * 86_400 });
// one delivery per event and endpoint (a redelivered bus event or a race cannot double it)
deliverySchema.index({ eventId: 1, endpointId: 1 }, { unique: true });

/** What a claim skips: endpoints and companies at their limits in this worker. */
export interface Skip {
  endpoints: string[];
  companies: string[];
}
const skipping = (skip: Skip) => ({
  ...(skip.endpoints.length ? { endpointId: { $nin: skip.endpoints } } : {}),
  // the ids come from deliveries read before (domain/fair-share.ts counts by them)
  ...(skip.companies.length ? { companyId: { $nin: skip.companies as CompanyId[] } } : {}),
});

export function deliveryStore(conn: Connection) {
  const model = conn.model<DeliveryDoc>('WebhookDelivery', deliverySchema, 'deliveries');
  const raw = driverCollection<DeliveryDoc>(model);
  const settles = coalesced<AnyBulkWriteOperation<DeliveryDoc>, void>(async (ops) => {
    await raw.bulkWrite(ops, { ordered: false });
    return [];
  });
  return {
    model,
    init: () => model.init(),
    /** Inserts deliveries (with their ids, so the caller can name them). */
    async insertMany(docs: Omit<DeliveryDoc, '_id'>[], session?: ClientSession): Promise<DeliveryDoc[]> {
      const withIds = docs.map((d) => ({ _id: new Types.ObjectId(), ...d }));
      await raw.insertMany(withIds, { session });
      return withIds;
    },
    get: (companyId: CompanyId, endpointId: string, id: Types.ObjectId) =>
      model.findOne({ _id: id, companyId, endpointId }).lean<DeliveryDoc>(),
    page: (companyId: CompanyId, endpointId: string, q: { status?: DeliveryDoc['status']; before?: Types.ObjectId; limit: number }) =>
      model
        .find({ companyId, endpointId, ...(q.status ? { status: q.status } : {}), ...(q.before ? { _id: { $lt: q.before } } : {}) })
        .sort({ _id: -1 })
        .limit(q.limit + 1)
        .lean<DeliveryDoc[]>(),
    /**
     * Takes one due delivery for `owner` until `leaseUntil`, skipping the endpoints and companies at their limits
     * (domain/fair-share.ts). Due: pending, its time come, and not held by a live lease.
     */
    claimAcrossCompanies: (now: Date, leaseUntil: Date, owner: string, skip: Skip) =>
      raw.findOneAndUpdate(
        {
          status: 'pending',
          nextAttemptAt: { $lte: now },
          $or: [{ leaseUntil: { $exists: false } }, { leaseUntil: { $lte: now } }],
          ...skipping(skip),
        },
        { $set: { leaseUntil, leaseOwner: owner } },
        { sort: { nextAttemptAt: 1 }, returnDocument: 'after' },
      ),
    /**
     * Takes up to `limit` due deliveries at once (two round trips instead of one each), those `choose` picks of the
     * due ones read (it takes their slots), skipping `skip`; null when none is due, and `rest` false when it took all
     * that were due. A race with another worker is settled by the update: a delivery it took between the read and
     * the update is not ours (ours are read back by this exact lease).
     */
    async claimSomeAcrossCompanies(
      now: Date,
      leaseUntil: Date,
      owner: string,
      skip: Skip,
      choose: (due: DeliveryDoc[], limit: number) => DeliveryDoc[],
      limit: number,
    ): Promise<{ claimed: DeliveryDoc[]; rest: boolean } | null> {
      const due = { status: 'pending' as const, $or: [{ leaseUntil: { $exists: false } }, { leaseUntil: { $lte: now } }] };
      const candidates = await raw
        .find({ ...due, nextAttemptAt: { $lte: now }, ...skipping(skip) })
        .sort({ nextAttemptAt: 1 })
        .limit(limit * 2)
        .toArray();
      if (!candidates.length) return null;
      const chosen = choose(candidates, limit);
      // whether due deliveries are left (beyond the read, or of an endpoint or company out of free slots)
      const rest = candidates.length === limit * 2 || chosen.length < candidates.length;
      if (!chosen.length) return { claimed: [], rest };
      const ids = chosen.map((d) => d._id);
      const res = await raw.updateMany(
        { _id: { $in: ids }, ...due, nextAttemptAt: { $lte: now } },
        { $set: { leaseUntil, leaseOwner: owner } },
      );
      if (res.modifiedCount === chosen.length) return { claimed: chosen.map((d) => ({ ...d, leaseUntil, leaseOwner: owner })), rest };
      // another worker took some in between: ours hold exactly this lease (a lease of ours from before either still
      // runs, and then the delivery was not due, or it ended before now)
      return { claimed: await raw.find({ _id: { $in: ids }, leaseOwner: owner, leaseUntil }).toArray(), rest: true };
    },
    /**
     * Records an attempt's outcome, if this worker still holds the lease. The outcomes of attempts ending together
     * are written in one bulkWrite (one round trip); each call settles when its outcome is written.
     */
    settleAcrossCompanies: (id: Types.ObjectId, owner: string, attempt: Attempt, set: Partial<DeliveryDoc>) =>
      settles.add({
        updateOne: {
          filter: { _id: id, leaseOwner: owner, status: 'pending' },
          update: {
            $set: set,
            $unset: { leaseUntil: '', leaseOwner: '' },
            $inc: { attempts: 1 },
            $push: { attemptLog: { $each: [attempt], $slice: -ATTEMPT_LOG_SIZE } },
          },
        },
      }),
    /** Gives a delivery back without an attempt (its payload could not be prepared yet). */
    releaseAcrossCompanies: (id: Types.ObjectId, owner: string, nextAttemptAt: Date) =>
      raw.updateOne({ _id: id, leaseOwner: owner }, { $set: { nextAttemptAt }, $unset: { leaseUntil: '', leaseOwner: '' } }),
    /** Fails a delivery without an attempt (its endpoint is gone or disabled). */
    abandonAcrossCompanies: (id: Types.ObjectId, owner: string) =>
      raw.updateOne(
        { _id: id, leaseOwner: owner },
        { $set: { status: 'failed' }, $unset: { leaseUntil: '', leaseOwner: '', nextAttemptAt: '' } },
      ),
    /** Sends a delivery again now (a new round of the schedule). */
    requeue: (companyId: CompanyId, endpointId: string, id: Types.ObjectId, now: Date, session?: ClientSession) =>
      model.updateOne(
        { _id: id, companyId, endpointId, status: { $ne: 'pending' } },
        { $set: { status: 'pending', nextAttemptAt: now, attempts: 0 }, $unset: { deliveredAt: 1 } },
        { session },
      ),
    /** Brings a pending delivery's next attempt forward to now, unless an attempt is in flight (false then). */
    sendPendingNow: async (companyId: CompanyId, endpointId: string, id: Types.ObjectId, now: Date, session?: ClientSession) =>
      (
        await model.updateOne(
          { _id: id, companyId, endpointId, status: 'pending', $or: [{ leaseUntil: { $exists: false } }, { leaseUntil: { $lte: now } }] },
          { $set: { nextAttemptAt: now } },
          { session },
        )
      ).matchedCount === 1,
    requeueFailedSince: (companyId: CompanyId, endpointId: string, since: Date, now: Date, session?: ClientSession) =>
      model.updateMany(
        { companyId, endpointId, status: 'failed', createdAt: { $gte: since } },
        { $set: { status: 'pending', nextAttemptAt: now, attempts: 0 } },
        { session },
      ),
    /**
     * Deliveries of the endpoint created since `since` that failed an attempt and wait for their automatic retry
     * (pending, attempted at least once): how many, and when the first of them is tried again.
     */
    waitingForRetrySince: async (companyId: CompanyId, endpointId: string, since: Date, session?: ClientSession) => {
      const [row] = await model
        .aggregate<{ count: number; next: Date | null }>([
          { $match: { companyId, endpointId, status: 'pending', attempts: { $gt: 0 }, createdAt: { $gte: since } } },
          { $group: { _id: null, count: { $sum: 1 }, next: { $min: '$nextAttemptAt' } } },
        ])
        .session(session ?? null);
      return { count: row?.count ?? 0, next: row?.next ?? null };
    },
    /** The endpoint's pending deliveries fail with it (disabled or deleted). */
    failPendingOf: (companyId: CompanyId, endpointId: string, session?: ClientSession) =>
      model.updateMany(
        { companyId, endpointId, status: 'pending' },
        { $set: { status: 'failed' }, $unset: { nextAttemptAt: 1 } },
        { session },
      ),
  };
}
export type DeliveryStore = ReturnType<typeof deliveryStore>;
