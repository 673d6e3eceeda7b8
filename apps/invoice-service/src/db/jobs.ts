import { Schema, type ClientSession, type Connection } from 'mongoose';
import { AS_BUILT, driverCollection } from '@inv/service-kit';
import type { JobStatus } from '@inv/contracts';

export interface JobDoc {
  _id: string;
  companyId: string;
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
  return {
    init: () => model.init(),
    get: (companyId: string, invoiceId: number, id: string) => model.findOne({ _id: id, companyId, invoiceId }).lean<JobDoc>(),
    byId: (companyId: string, id: string, session?: ClientSession) =>
      model
        .findOne({ _id: id, companyId })
        .session(session ?? null)
        .lean<JobDoc>(),
    /** One per finalization: written with the driver (see invoices.ts: the document is built with the schema's types). */
    insert: async (doc: JobDoc, session?: ClientSession) => void (await driverCollection(model).insertOne(doc, { ...AS_BUILT, session })),
    /** queued -> started; a late or repeated "started" never moves a finished or failed job back. Answers the job if it moved. */
    markStarted: (companyId: string, id: string, now: Date) =>
      model
        .findOneAndUpdate(
          { _id: id, companyId, status: 'queued' },
          { $set: { status: 'started', startedAt: now } },
          { returnDocument: 'after' },
        )
        .lean<JobDoc>(),
    markFinished: (companyId: string, id: string, now: Date, startedAt: Date, session?: ClientSession) =>
      model.updateOne({ _id: id, companyId }, { $set: { status: 'finished', finishedAt: now, startedAt } }, { session }),
    markFailed: (companyId: string, id: string, errorMessage: string, now: Date, startedAt: Date | undefined, session?: ClientSession) =>
      model.updateOne(
        { _id: id, companyId },
        { $set: { status: 'failed', finishedAt: now, errorMessage, ...(startedAt ? { startedAt } : {}) } },
        { session },
      ),
  };
}
export type JobsRepo = ReturnType<typeof jobsRepo>;
