import { Schema, type ClientSession, type Connection } from 'mongoose';
import type { CompanyId, RecurringPausedReason, RecurringRunOutcome, RecurringSchedule, RecurringStatus } from '@inv/contracts';
import type { z } from 'zod';

export type PausedReason = RecurringPausedReason;

export interface LastRunDoc {
  date: string;
  periodStart: string;
  periodEnd: string;
  invoiceId: number | null;
  outcome: z.output<typeof RecurringRunOutcome>;
  error: string | null;
}

export interface ScheduleDoc {
  _id: string; // `${companyId}:${id}`
  companyId: CompanyId;
  id: number;
  name: string | null;
  /**
   * The template as JSON text, as the request parsed it (decimals as exact text; answered as JSON numbers, see
   * domain/template.ts): it holds the integrator's `meta` object, whose keys (dots, dollar signs) must not become
   * MongoDB field names.
   */
  templateJson: string;
  schedule: RecurringSchedule;
  autoFinalize: boolean;
  autoSendEmail: boolean;
  status: z.output<typeof RecurringStatus>;
  pausedReason: PausedReason | null;
  /** The index of the next run (domain/schedule.ts) and its date (null once ended). */
  nextIndex: number;
  nextRunDate: string | null;
  /** End of the last period billed: a changed schedule starts after it. */
  billedUntil: string | null;
  lastRun: LastRunDoc | null;
  /** Bumped by every change of the schedule or status: a run advances the schedule only if it is unchanged. */
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

const scheduleSchema = new Schema<ScheduleDoc>(
  {
    _id: String,
    companyId: { type: String, required: true },
    id: { type: Number, required: true },
    name: { type: String, default: null },
    templateJson: { type: String, required: true },
    schedule: { type: Schema.Types.Mixed, required: true },
    autoFinalize: Boolean,
    autoSendEmail: Boolean,
    status: { type: String, required: true },
    pausedReason: { type: String, default: null },
    nextIndex: Number,
    nextRunDate: { type: String, default: null },
    billedUntil: { type: String, default: null },
    lastRun: { type: Schema.Types.Mixed, default: null },
    version: { type: Number, required: true },
    createdAt: Date,
    updatedAt: Date,
  },
  { versionKey: false, minimize: false },
);
scheduleSchema.index({ companyId: 1, id: -1 });
// the scheduler's question: active schedules whose next run is due
scheduleSchema.index({ status: 1, nextRunDate: 1, _id: 1 });

export const scheduleKey = (companyId: CompanyId, id: number) => `${companyId}:${id}`;

export function scheduleStore(conn: Connection) {
  const model = conn.model<ScheduleDoc>('RecurringSchedule', scheduleSchema, 'schedules');
  return {
    model,
    init: () => model.init(),
    insert: async (doc: ScheduleDoc, session?: ClientSession) => {
      await model.create([doc], { session });
    },
    get: (companyId: CompanyId, id: number) => model.findById(scheduleKey(companyId, id)).lean<ScheduleDoc>(),
    async list(companyId: CompanyId, q: { page: number; limit: number; status?: ScheduleDoc['status'] }) {
      const filter = { companyId, ...(q.status ? { status: q.status } : {}) };
      const [docs, total] = await Promise.all([
        model
          .find(filter)
          .sort({ id: -1 })
          .skip((q.page - 1) * q.limit)
          .limit(q.limit)
          .lean<ScheduleDoc[]>(),
        model.countDocuments(filter),
      ]);
      return { docs, total };
    },
    countLive: (companyId: CompanyId) => model.countDocuments({ companyId, status: { $ne: 'ended' } }),
    /** Writes a change made on `version` (optimistic: false when another change came first). */
    async replace(companyId: CompanyId, id: number, version: number, set: Partial<ScheduleDoc>, session?: ClientSession): Promise<boolean> {
      const r = await model.updateOne(
        { _id: scheduleKey(companyId, id), version },
        { $set: { ...set, version: version + 1 } },
        { session },
      );
      return r.matchedCount === 1;
    },
    remove: (companyId: CompanyId, id: number, session?: ClientSession) =>
      model.deleteOne({ _id: scheduleKey(companyId, id) }, { session }),
    /**
     * Active schedules whose next run is on or before `today`, oldest due first, in pages after `after` (the last
     * of the previous page), so schedules that stay due (held by another replica, or failing) do not hide the rest.
     */
    dueAcrossCompanies: (today: string, limit: number, after?: { nextRunDate: string; _id: string }) =>
      model
        .find({
          status: 'active',
          nextRunDate: { $ne: null, $lte: today },
          ...(after
            ? { $or: [{ nextRunDate: { $gt: after.nextRunDate } }, { nextRunDate: after.nextRunDate, _id: { $gt: after._id } }] }
            : {}),
        })
        .sort({ nextRunDate: 1, _id: 1 })
        .limit(limit)
        .lean<ScheduleDoc[]>(),
  };
}
export type ScheduleStore = ReturnType<typeof scheduleStore>;
