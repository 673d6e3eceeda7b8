import { Schema, type ClientSession, type Connection } from 'mongoose';
import type { CompanyId } from '@inv/contracts';

export interface ExportJobResult {
  download_ids: number[];
  is_split: boolean;
  split_reason: string | null;
  total_invoice_count: number;
  total_payment_count?: number;
  total_supplier_invoice_count?: number;
  error?: { message: string; error_code: 'no_invoices_found' };
}

export interface ExportJobDoc {
  _id: string;
  companyId: CompanyId;
  task: string;
  status: 'queued' | 'started' | 'finished' | 'failed';
  progress: number;
  startDate: string;
  endDate: string;
  includeMasterData: boolean;
  includeDocuments: boolean;
  onlyNew: boolean;
  /** Units per 1 EUR by currency, given with the request (received invoices in another currency). */
  exchangeRates?: Record<string, string>;
  attempts: number;
  result?: ExportJobResult;
  errorMessage?: string;
  createdAt: Date;
  startedAt?: Date;
  finishedAt?: Date;
}

const schema = new Schema<ExportJobDoc>(
  {
    _id: String,
    companyId: { type: String, required: true },
    task: { type: String, required: true },
    status: { type: String, required: true },
    progress: { type: Number, required: true },
    startDate: { type: String, required: true },
    endDate: { type: String, required: true },
    includeMasterData: Boolean,
    includeDocuments: Boolean,
    onlyNew: Boolean,
    exchangeRates: { type: Schema.Types.Mixed, default: undefined },
    attempts: { type: Number, default: 0 },
    result: Schema.Types.Mixed,
    errorMessage: String,
    createdAt: { type: Date, required: true },
    startedAt: Date,
    finishedAt: Date,
  },
  { versionKey: false },
);
schema.index({ companyId: 1, createdAt: -1 });

export function exportJobsRepo(conn: Connection) {
  const model = conn.model<ExportJobDoc>('ExportJob', schema, 'export_jobs');
  return {
    init: () => model.init(),
    get: (companyId: CompanyId, id: string, session?: ClientSession) =>
      model
        .findOne({ _id: id, companyId })
        .session(session ?? null)
        .lean<ExportJobDoc>(),
    create: (doc: ExportJobDoc, session: ClientSession) => model.create([doc], { session }),
    /** queued|started -> started (a redelivered run after a restart starts again); counts attempts. */
    markStarted: (companyId: CompanyId, id: string, now: Date) =>
      model
        .findOneAndUpdate(
          { _id: id, companyId, status: { $in: ['queued', 'started'] } },
          { $set: { status: 'started', startedAt: now, progress: 1 }, $inc: { attempts: 1 } },
          { returnDocument: 'after' },
        )
        .lean<ExportJobDoc>(),
    progress: (companyId: CompanyId, id: string, progress: number) =>
      model.updateOne({ _id: id, companyId, status: 'started' }, { $set: { progress } }),
    finish: (companyId: CompanyId, id: string, result: ExportJobResult, now: Date, session: ClientSession) =>
      model.updateOne(
        { _id: id, companyId, status: 'started' },
        { $set: { status: 'finished', progress: 100, result, finishedAt: now } },
        { session },
      ),
    fail: (companyId: CompanyId, id: string, message: string, now: Date, session?: ClientSession) =>
      model.updateOne(
        { _id: id, companyId, status: { $in: ['queued', 'started'] } },
        { $set: { status: 'failed', errorMessage: message, finishedAt: now } },
        { session },
      ),
  };
}
export type ExportJobsRepo = ReturnType<typeof exportJobsRepo>;
