import { Schema, type Connection } from 'mongoose';
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
  return { model, get: (companyId: string, invoiceId: number, id: string) => model.findOne({ _id: id, companyId, invoiceId }).lean<JobDoc>() };
}
export type JobsRepo = ReturnType<typeof jobsRepo>;
