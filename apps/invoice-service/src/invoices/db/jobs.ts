import { Schema, type ClientSession, type Connection } from 'mongoose';
import { AS_BUILT, driverCollection } from '@inv/service-kit';
import type { CompanyId, JobStatus } from '@inv/contracts';

export interface JobDoc {
  _id: string;
  companyId: CompanyId;
  invoiceId: number;
  task: string;
  status: JobStatus;
  reservationId: string;
  errorMessage?: string;
  createdAt: Date;
  startedAt?: Date;
  finishedAt?: Date;
}

const schema = new Schema<JobDoc>(
  {
    _id: String,
    companyId: { type: String, required: true },
    invoiceId: { type: Number, required: true },
    task: { type: String, required: true },
    status: { type: String, required: true },
    reservationId: { type: String, required: true },
    errorMessage: String,
    createdAt: { type: Date, required: true },
    startedAt: Date,
    finishedAt: Date,
  },
  { versionKey: false },
);
schema.index({ companyId: 1, invoiceId: 1 });

export function jobsRepo(conn: Connection) {
  const model = conn.model<JobDoc>('Job', schema, 'jobs');
  // Every call on a finalization's path (a job read per status request, its writes) goes to the driver: a mongoose
  // query cost 55–75 µs of CPU more than the driver's (docs/performance.md). The documents are built here with the
  // schema's types; invoices.int.spec.ts compares what both store.
  const raw = driverCollection(model);
  const opts = (session?: ClientSession) => ({ ...AS_BUILT, session });
  return {
    init: () => model.init(),
    get: (companyId: CompanyId, invoiceId: number, id: string): Promise<JobDoc | null> => raw.findOne({ _id: id, companyId, invoiceId }),
    byId: (companyId: CompanyId, id: string, session?: ClientSession): Promise<JobDoc | null> =>
      raw.findOne({ _id: id, companyId }, { session }),
    /** One per finalization. */
    insert: async (doc: JobDoc, session?: ClientSession) => void (await raw.insertOne(doc, opts(session))),
    /** queued -> started; a late or repeated "started" never moves a finished or failed job back. Answers the job if it moved. */
    markStarted: (companyId: CompanyId, id: string, now: Date): Promise<JobDoc | null> =>
      raw.findOneAndUpdate(
        { _id: id, companyId, status: 'queued' },
        { $set: { status: 'started', startedAt: now } },
        { ...opts(), returnDocument: 'after' },
      ),
    markFinished: (companyId: CompanyId, id: string, now: Date, startedAt: Date, session?: ClientSession) =>
      raw.updateOne({ _id: id, companyId }, { $set: { status: 'finished', finishedAt: now, startedAt } }, opts(session)),
    markFailed: (companyId: CompanyId, id: string, errorMessage: string, now: Date, startedAt: Date | undefined, session?: ClientSession) =>
      raw.updateOne(
        { _id: id, companyId },
        { $set: { status: 'failed', finishedAt: now, errorMessage, ...(startedAt ? { startedAt } : {}) } },
        opts(session),
      ),
  };
}
export type JobsRepo = ReturnType<typeof jobsRepo>;
