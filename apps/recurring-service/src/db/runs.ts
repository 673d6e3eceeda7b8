import { Schema, type ClientSession, type Connection } from 'mongoose';
import type { CompanyId, RecurringRunOutcome } from '@inv/contracts';
import { driverCollection } from '@inv/service-kit';
import type { z } from 'zod';

export type RunOutcome = z.output<typeof RecurringRunOutcome>;

/**
 * One run of a schedule: one period, one invoice. Its `_id` is the (company, schedule, period) claim: inserting it
 * is what lets exactly one replica issue the period; the fields after the claim record each step as soon as it
 * is done, so a replica resuming the run (lease expired) continues where the other stopped.
 */
export interface RunDoc {
  _id: string; // `${companyId}:${scheduleId}:${period}`
  companyId: CompanyId;
  scheduleId: number;
  index: number;
  /** The run date, which is the period's first day. */
  period: string;
  periodEnd: string;
  state: 'open' | 'done';
  outcome: RunOutcome;
  error: string | null;
  invoiceId: number | null;
  positionsAdded: number;
  jobId: string | null;
  finalized: boolean;
  emailId: string | null;
  owner: string | null;
  leaseUntil: Date;
  startedAt: Date;
  finishedAt: Date | null;
}

const runSchema = new Schema<RunDoc>(
  {
    _id: String,
    companyId: { type: String, required: true },
    scheduleId: { type: Number, required: true },
    index: Number,
    period: { type: String, required: true },
    periodEnd: String,
    state: { type: String, required: true },
    outcome: String,
    error: { type: String, default: null },
    invoiceId: { type: Number, default: null },
    positionsAdded: { type: Number, default: 0 },
    jobId: { type: String, default: null },
    finalized: { type: Boolean, default: false },
    emailId: { type: String, default: null },
    owner: { type: String, default: null },
    leaseUntil: Date,
    startedAt: Date,
    finishedAt: { type: Date, default: null },
  },
  { versionKey: false },
);
runSchema.index({ companyId: 1, scheduleId: 1, period: -1 });

export const runKey = (companyId: CompanyId, scheduleId: number, period: string) => `${companyId}:${scheduleId}:${period}`;

const isDuplicateKey = (err: unknown) => (err as { code?: number }).code === 11000;

export function runStore(conn: Connection) {
  const model = conn.model<RunDoc>('RecurringRun', runSchema, 'runs');
  return {
    model,
    init: () => model.init(),
    /**
     * Claims the run of a period for `owner`: inserts it, or takes over an open run whose lease has expired (its
     * replica died, or it was left for a later tick). Null when another replica holds it or it is done.
     */
    async claim(
      base: Pick<RunDoc, 'companyId' | 'scheduleId' | 'index' | 'period' | 'periodEnd'>,
      owner: string,
      now: Date,
      leaseUntil: Date,
    ): Promise<{ run: RunDoc; resumed: boolean } | null> {
      const _id = runKey(base.companyId, base.scheduleId, base.period);
      try {
        const doc: RunDoc = {
          _id,
          ...base,
          state: 'open',
          outcome: 'running',
          error: null,
          invoiceId: null,
          positionsAdded: 0,
          jobId: null,
          finalized: false,
          emailId: null,
          owner,
          leaseUntil,
          startedAt: now,
          finishedAt: null,
        };
        await driverCollection(model).insertOne(doc);
        return { run: doc, resumed: false };
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
      const taken = await model
        .findOneAndUpdate({ _id, state: 'open', leaseUntil: { $lte: now } }, { $set: { owner, leaseUntil } }, { returnDocument: 'after' })
        .lean<RunDoc>();
      return taken && { run: taken, resumed: true };
    },
    /** Records progress while still holding the run; false when the lease was lost to another replica. */
    async record(run: RunDoc, set: Partial<RunDoc>): Promise<boolean> {
      const r = await model.updateOne({ _id: run._id, owner: run.owner, state: 'open' }, { $set: set });
      if (r.matchedCount === 1) Object.assign(run, set);
      return r.matchedCount === 1;
    },
    /** Settles the run (inside the transaction that advances or pauses the schedule). */
    finish: (run: RunDoc, set: Partial<RunDoc>, session: ClientSession) =>
      model.updateOne({ _id: run._id, owner: run.owner, state: 'open' }, { $set: set }, { session }),
    /** Leaves an open run for a later tick (any replica may take it at once). */
    release: (run: RunDoc, now: Date, set: Partial<RunDoc> = {}) =>
      model.updateOne({ _id: run._id, owner: run.owner, state: 'open' }, { $set: { ...set, leaseUntil: now } }),
    async list(companyId: CompanyId, scheduleId: number, q: { page: number; limit: number }) {
      const filter = { companyId, scheduleId };
      const [docs, total] = await Promise.all([
        model
          .find(filter)
          .sort({ period: -1 })
          .skip((q.page - 1) * q.limit)
          .limit(q.limit)
          .lean<RunDoc[]>(),
        model.countDocuments(filter),
      ]);
      return { docs, total };
    },
    removeOf: (companyId: CompanyId, scheduleId: number, session?: ClientSession) =>
      model.deleteMany({ companyId, scheduleId }, { session }),
  };
}
export type RunStore = ReturnType<typeof runStore>;
