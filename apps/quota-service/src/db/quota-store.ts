import { Schema, type ClientSession, type Connection } from 'mongoose';
import type { CompanyId } from '@inv/contracts';
import { driverCollection } from '@inv/service-kit';
import type { Plan } from '../domain/quota';

interface UsageDoc {
  _id: string; // `${companyId}:${month}`
  companyId: CompanyId;
  month: string;
  used: number;
  reservations: string[];
  /** The limit whose reaching was announced (quota.limit-reached.v1), once per month and limit. */
  limitAnnounced?: number;
}
interface PlanDoc {
  _id: string; // companyId
  plan: Plan;
  updatedAt: Date;
  /** Number of plan changes made here (company.plan-changed.v1 carries it). */
  version?: number;
}

const usageSchema = new Schema<UsageDoc>(
  {
    _id: String,
    companyId: { type: String, required: true },
    month: { type: String, required: true },
    used: { type: Number, required: true },
    reservations: [String],
    limitAnnounced: Number,
  },
  { versionKey: false },
);
const planSchema = new Schema<PlanDoc>(
  { _id: String, plan: { type: String, enum: ['free', 'pro'], required: true }, updatedAt: Date, version: Number },
  { versionKey: false },
);

const MAX_RESERVE_ATTEMPTS = 20;

export function quotaStore(conn: Connection) {
  const usage = conn.model<UsageDoc>('Usage', usageSchema, 'usage');
  const plans = conn.model<PlanDoc>('Plan', planSchema, 'plans');
  const id = (companyId: CompanyId, month: string) => `${companyId}:${month}`;
  return {
    usage,
    plans,
    /** The recorded plan, or undefined when no plan event (or answer) was recorded for the company yet. */
    async knownPlanOf(companyId: CompanyId): Promise<Plan | undefined> {
      return (await driverCollection(plans).findOne({ _id: companyId }, { projection: { plan: 1 } }))?.plan;
    },
    /** Records the plan a company started with (company.created.v1, or account-service's answer) unless a plan is recorded already. */
    setInitialPlan: (companyId: CompanyId, plan: Plan) =>
      plans.updateOne({ _id: companyId }, { $setOnInsert: { plan, updatedAt: new Date(), version: 0 } }, { upsert: true }),
    planDoc: (companyId: CompanyId, session?: ClientSession) =>
      plans
        .findById(companyId)
        .session(session ?? null)
        .lean<PlanDoc>(),
    /** Writes a changed plan with its version (inside the transaction that announces it). */
    writePlan: (companyId: CompanyId, plan: Plan, version: number, session: ClientSession) =>
      plans.updateOne({ _id: companyId }, { $set: { plan, version, updatedAt: new Date() } }, { upsert: true, session }),
    async used(companyId: CompanyId, month: string): Promise<number> {
      return (await usage.findById(id(companyId, month)).lean())?.used ?? 0;
    },
    /**
     * Counts one finalization unless the month is used up. Idempotent per reservation id: asking again
     * for the same reservation (a retried request) grants it again without counting twice.
     */
    async reserve(companyId: CompanyId, month: string, reservationId: string, limit: number): Promise<{ granted: boolean; used: number }> {
      const _id = id(companyId, month);
      // One round trip in the common case; only `used` comes back (the month's reservation ids stay in the
      // database). When the conditional update misses, the reads after it tell why: no document for the month
      // yet (create it, then again), this reservation already counted (granted), the limit reached (refused),
      // or none of these because another reservation changed the document in between, e.g. created it:
      // then again, as a refusal there would be a spurious 402 at the first finalizations of every month.
      for (let attempt = 1; ; attempt++) {
        // (the driver's call, not mongoose's, as for the plan's read: both run at every finalization, and a
        // mongoose query costs 55–75 µs of CPU more; docs/performance.md)
        const counted = await driverCollection(usage).findOneAndUpdate(
          { _id, used: { $lt: limit }, reservations: { $ne: reservationId } },
          { $inc: { used: 1 }, $push: { reservations: reservationId } },
          { returnDocument: 'after', projection: { used: 1 } },
        );
        if (counted) return { granted: true, used: counted.used };
        const current = await usage.findById(_id, { used: 1 }).lean();
        if (!current) {
          await usage.updateOne({ _id }, { $setOnInsert: { companyId, month, used: 0, reservations: [] } }, { upsert: true });
          continue;
        }
        if ((await usage.exists({ _id, reservations: reservationId })) !== null) return { granted: true, used: current.used };
        // every lost race means another reservation made progress; the bound only guards against a bug
        if (current.used >= limit || attempt >= MAX_RESERVE_ATTEMPTS) return { granted: false, used: current.used };
      }
    },
    /** Records that reaching `limit` in the month was announced; false when it was before (announce once). */
    async markLimitAnnounced(companyId: CompanyId, month: string, limit: number, session: ClientSession): Promise<boolean> {
      const res = await usage.updateOne(
        { _id: id(companyId, month), limitAnnounced: { $ne: limit } },
        { $set: { limitAnnounced: limit } },
        { session },
      );
      return res.modifiedCount === 1;
    },
    /** Gives a reservation back (its finalization failed); a second release changes nothing. */
    release: (companyId: CompanyId, month: string, reservationId: string) =>
      usage.updateOne(
        { _id: id(companyId, month), reservations: reservationId },
        { $inc: { used: -1 }, $pull: { reservations: reservationId } },
      ),
  };
}
export type QuotaStore = ReturnType<typeof quotaStore>;
