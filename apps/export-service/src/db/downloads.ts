import { Schema, type ClientSession, type Connection } from 'mongoose';
import type { CompanyId } from '@inv/contracts';

export interface DownloadDoc {
  _id: number; // public integer id
  companyId: CompanyId;
  jobId: string;
  /** Position in the job's file set: (jobId, index) is unique, so a redone job never records two sets. */
  index: number;
  filename: string;
  key: string;
  size: number;
  periodStart: string;
  periodEnd: string;
  invoiceCount: number;
  createdAt: Date;
}

const schema = new Schema<DownloadDoc>(
  {
    _id: Number,
    companyId: { type: String, required: true },
    jobId: { type: String, required: true },
    index: { type: Number, required: true },
    filename: { type: String, required: true },
    key: { type: String, required: true },
    size: { type: Number, required: true },
    periodStart: String,
    periodEnd: String,
    invoiceCount: Number,
    createdAt: { type: Date, required: true },
  },
  { versionKey: false },
);
schema.index({ jobId: 1, index: 1 }, { unique: true });
schema.index({ companyId: 1, createdAt: -1, _id: -1 });

export function downloadsRepo(conn: Connection) {
  const model = conn.model<DownloadDoc>('Download', schema, 'downloads');
  return {
    init: () => model.init(),
    list: (companyId: CompanyId) => model.find({ companyId }).sort({ createdAt: -1, _id: -1 }).lean<DownloadDoc[]>(),
    get: (companyId: CompanyId, id: number) => model.findOne({ _id: id, companyId }).lean<DownloadDoc>(),
    ofJob: (companyId: CompanyId, jobId: string, session?: ClientSession) =>
      model
        .find({ companyId, jobId })
        .sort({ index: 1 })
        .session(session ?? null)
        .lean<DownloadDoc[]>(),
    create: (docs: DownloadDoc[], session: ClientSession) => model.create(docs, { session, ordered: true }),
    remove: (companyId: CompanyId, id: number) => model.deleteOne({ _id: id, companyId }),
  };
}
export type DownloadsRepo = ReturnType<typeof downloadsRepo>;
