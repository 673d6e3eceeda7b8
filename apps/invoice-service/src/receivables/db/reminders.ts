import type { CompanyId } from '@inv/contracts';
import { companyKey } from '@inv/runtime';
import { Schema, type ClientSession, type Connection } from 'mongoose';
import type { InterestPeriod, ReminderMode, ReminderTemplate } from '../domain/dunning';
import type { StoredFile } from '../../invoices';

/** The counter of a company's reminder ids (`reminder:<companyId>`): a company's first reminder is 1. */
export const reminderCounter = (companyId: CompanyId) => `reminder:${companyId}`;

/** A reminder issued for an invoice (one per invoice and level); amounts as decimal strings with 2 decimals. */
export interface ReminderDoc {
  /** `<companyId>:<id>`. */
  _id: string;
  companyId: CompanyId;
  id: number;
  invoiceId: number;
  level: number;
  date: string;
  language: 'de' | 'en';
  b2b: boolean;
  openAmount: string;
  fee: string;
  fees: string;
  flatFee: string;
  interest: string;
  interestFrom: string;
  periods: InterestPeriod[];
  total: string;
  payBy: string;
  subject: string;
  pdf: StoredFile;
  emailId?: string;
  source: 'manual' | 'daily_run';
  createdAt: Date;
}

const reminderSchema = new Schema<ReminderDoc>(
  {
    _id: String,
    companyId: { type: String, required: true },
    id: { type: Number, required: true },
    invoiceId: { type: Number, required: true },
    level: { type: Number, required: true },
    date: { type: String, required: true },
    language: String,
    b2b: Boolean,
    openAmount: String,
    fee: String,
    fees: String,
    flatFee: String,
    interest: String,
    interestFrom: String,
    periods: Schema.Types.Mixed,
    total: String,
    payBy: String,
    subject: String,
    pdf: { key: String, filename: String, contentType: String, size: Number },
    emailId: String,
    source: String,
    createdAt: { type: Date, required: true },
  },
  { versionKey: false },
);
// one reminder per invoice and level: two concurrent issues of one level conflict here
reminderSchema.index({ companyId: 1, invoiceId: 1, level: 1 }, { unique: true });
// the company's list, newest first (ids are issued in order), paged by id
reminderSchema.index({ companyId: 1, id: -1 });

/** The company's reminder settings (absent: the defaults of domain/dunning.ts); texts only where the company set its own. */
export interface ReminderSettingsDoc {
  _id: string; // companyId
  mode?: ReminderMode;
  intervalDays?: [number, number, number];
  fees?: [string, string, string];
  flatFeeB2B?: boolean;
  payWithinDays?: number;
  /** `de_1`, `en_3`, ...: the company's own text of that language and level. */
  texts?: Record<string, ReminderTemplate>;
  updatedAt: Date;
}
const settingsSchema = new Schema<ReminderSettingsDoc>(
  {
    _id: String,
    mode: String,
    intervalDays: { type: [Number], default: undefined },
    fees: { type: [String], default: undefined },
    flatFeeB2B: Boolean,
    payWithinDays: Number,
    texts: Schema.Types.Mixed,
    updatedAt: Date,
  },
  { versionKey: false },
);

/** A reminder the daily run proposes (mode `propose`, or `send` when it could not be sent): one per invoice and level. */
export interface ProposalDoc {
  _id: string; // `<companyId>:<invoiceId>:<level>`
  companyId: CompanyId;
  invoiceId: number;
  customerId: number;
  number: string;
  level: number;
  dueDate: string;
  openAmount: string;
  proposedOn: string;
  reason?: string;
  createdAt: Date;
}
const proposalSchema = new Schema<ProposalDoc>(
  {
    _id: String,
    companyId: { type: String, required: true },
    invoiceId: Number,
    customerId: Number,
    number: String,
    level: Number,
    dueDate: String,
    openAmount: String,
    proposedOn: String,
    reason: String,
    createdAt: Date,
  },
  { versionKey: false },
);
proposalSchema.index({ companyId: 1, invoiceId: 1 });

/**
 * The daily run's claim of a company and day (`<companyId>:<day>`): inserting it lets one replica do the company's
 * run of that day; an unfinished claim whose lease expired (its replica died) is taken over.
 */
interface RunDoc {
  _id: string;
  companyId: string;
  day: string;
  state: 'running' | 'done';
  owner: string;
  leaseUntil: Date;
  proposed?: number;
  sent?: number;
  overdue?: number;
  finishedAt?: Date;
}
const runSchema = new Schema<RunDoc>(
  {
    _id: String,
    companyId: String,
    day: String,
    state: String,
    owner: String,
    leaseUntil: Date,
    proposed: Number,
    sent: Number,
    overdue: Number,
    finishedAt: Date,
  },
  { versionKey: false },
);

/** An `invoice.overdue.v1` announced (`<companyId>:<invoiceId>:<dueDate>`): at most once per invoice and due date. */
interface OverdueDoc {
  _id: string;
  at: Date;
}
const overdueSchema = new Schema<OverdueDoc>({ _id: String, at: Date }, { versionKey: false });

const isDuplicateKey = (err: unknown) => (err as { code?: number } | null)?.code === 11000;

/** An open invoice past its due date, as the daily run reads it (across companies). */
export interface OverdueInvoice {
  companyId: CompanyId;
  id: number;
}

export function remindersRepo(conn: Connection) {
  const model = conn.model<ReminderDoc>('Reminder', reminderSchema, 'reminders');
  const settings = conn.model<ReminderSettingsDoc>('ReminderSettings', settingsSchema, 'reminder_settings');
  const proposals = conn.model<ProposalDoc>('ReminderProposal', proposalSchema, 'reminder_proposals');
  const runs = conn.model<RunDoc>('ReminderRun', runSchema, 'reminder_runs');
  const overdue = conn.model<OverdueDoc>('OverdueAnnouncement', overdueSchema, 'overdue_announcements');
  // invoice-service's invoices, read across companies by the daily run only (status and due date; the index is ours)
  const invoices = conn.collection('invoices');
  return {
    init: async () => {
      await Promise.all([model.init(), settings.init(), proposals.init(), runs.init(), overdue.init()]);
      await invoices.createIndex(
        { dueDate: 1, companyId: 1 },
        { name: 'overdue_open', partialFilterExpression: { status: { $in: ['OPEN', 'SENT'] } } },
      );
    },
    ofInvoice: (companyId: CompanyId, invoiceId: number, session?: ClientSession) =>
      model
        .find({ companyId, invoiceId })
        .sort({ level: 1 })
        .session(session ?? null)
        .lean<ReminderDoc[]>(),
    /** One page of the company's reminders, newest first: `limit` of those issued before `beforeId` that match. */
    page: (companyId: CompanyId, q: { level?: number; dateFrom?: string; dateTo?: string; beforeId?: number; limit: number }) =>
      model
        .find({
          companyId,
          ...(q.level ? { level: q.level } : {}),
          ...(q.dateFrom || q.dateTo
            ? { date: { ...(q.dateFrom ? { $gte: q.dateFrom } : {}), ...(q.dateTo ? { $lte: q.dateTo } : {}) } }
            : {}),
          ...(q.beforeId ? { id: { $lt: q.beforeId } } : {}),
        })
        .sort({ id: -1 })
        .limit(q.limit)
        .lean<ReminderDoc[]>(),
    get: (companyId: CompanyId, invoiceId: number, id: number) =>
      model.findOne({ _id: companyKey(companyId, id), companyId, invoiceId }).lean<ReminderDoc>(),
    /** False when the invoice already has a reminder of this level. */
    async insert(doc: Omit<ReminderDoc, '_id'>, session: ClientSession): Promise<boolean> {
      try {
        await model.create([{ _id: companyKey(doc.companyId, doc.id), ...doc }], { session });
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    },
    settings: (companyId: CompanyId) => settings.findById(companyId).lean<ReminderSettingsDoc>(),
    saveSettings: (companyId: CompanyId, set: Record<string, unknown>, unset: Record<string, 1>) =>
      settings.updateOne({ _id: companyId }, { $set: set, ...(Object.keys(unset).length ? { $unset: unset } : {}) }, { upsert: true }),
    /** Inserts the proposal unless there is one for the invoice and level; answers whether it was new. */
    async propose(doc: ProposalDoc): Promise<boolean> {
      try {
        await proposals.create([doc]);
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    },
    proposals: (companyId: CompanyId) => proposals.find({ companyId }).sort({ proposedOn: 1, invoiceId: 1 }).lean<ProposalDoc[]>(),
    dropProposals: (companyId: CompanyId, invoiceId: number, session?: ClientSession) =>
      proposals.deleteMany({ companyId, invoiceId }, { session }),
    /** The companies with open (OPEN, SENT) invoices due before `today`. */
    companiesWithOverdueAcrossCompanies: async (today: string): Promise<CompanyId[]> =>
      (await invoices.distinct('companyId', { status: { $in: ['OPEN', 'SENT'] }, dueDate: { $lt: today } })) as CompanyId[],
    overdueOf: async (companyId: CompanyId, today: string): Promise<number[]> =>
      (
        await invoices
          .find({ companyId, status: { $in: ['OPEN', 'SENT'] }, dueDate: { $lt: today } }, { projection: { id: 1 } })
          .sort({ id: 1 })
          .toArray()
      ).map((d) => d.id as number),
    /** Claims the run of a company and day for `owner`; false when another replica holds it or it is done. */
    async claimRun(companyId: CompanyId, day: string, owner: string, now: Date, leaseMs: number): Promise<boolean> {
      const _id = `${companyId}:${day}`;
      const leaseUntil = new Date(now.getTime() + leaseMs);
      try {
        await runs.create([{ _id, companyId, day, state: 'running', owner, leaseUntil }]);
        return true;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
      const taken = await runs.updateOne({ _id, state: 'running', leaseUntil: { $lt: now } }, { $set: { owner, leaseUntil } });
      return taken.modifiedCount === 1;
    },
    finishRun: (companyId: CompanyId, day: string, owner: string, counts: { proposed: number; sent: number; overdue: number }, now: Date) =>
      runs.updateOne({ _id: `${companyId}:${day}`, owner }, { $set: { state: 'done', ...counts, finishedAt: now } }),
    /** Records the announcement of an invoice's due date in the caller's transaction; false when it was announced before. */
    async announceOverdue(companyId: CompanyId, invoiceId: number, dueDate: string, now: Date, session: ClientSession): Promise<boolean> {
      const _id = `${companyId}:${invoiceId}:${dueDate}`;
      if (await overdue.exists({ _id }).session(session)) return false;
      await overdue.create([{ _id, at: now }], { session });
      return true;
    },
  };
}
export type RemindersRepo = ReturnType<typeof remindersRepo>;
