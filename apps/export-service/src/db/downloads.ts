import { Schema, type ClientSession, type Connection } from 'mongoose';
import type { CompanyId } from '@inv/contracts';
import { companyKey, migrateToCompanyKeys } from '@inv/runtime';

/** Download ids are numbered per company (a company's first is 1): one counter per company. */
export const downloadCounter = (companyId: CompanyId) => `download-id:${companyId}`;

export interface DownloadDoc {
  /** companyKey(companyId, id): the id alone repeats across companies. */
  _id: string;
  companyId: CompanyId;
  /** The public id. */
  id: number;
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
    _id: String,
    companyId: { type: String, required: true },
    id: { type: Number, required: true },
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
schema.index({ companyId: 1, createdAt: -1, id: -1 });

export function downloadsRepo(conn: Connection) {
  const model = conn.model<DownloadDoc>('Download', schema, 'downloads');
  return {
    /** The indexes, and downloads stored before ids were per company brought to the current shape. */
    init: async () => {
      await model.init();
      await migrateToCompanyKeys(conn, { collection: 'downloads', counter: downloadCounter });
    },
    list: (companyId: CompanyId) => model.find({ companyId }).sort({ createdAt: -1, id: -1 }).lean<DownloadDoc[]>(),
    get: (companyId: CompanyId, id: number) => model.findOne({ _id: companyKey(companyId, id), companyId }).lean<DownloadDoc>(),
    ofJob: (companyId: CompanyId, jobId: string, session?: ClientSession) =>
      model
        .find({ companyId, jobId })
        .sort({ index: 1 })
        .session(session ?? null)
        .lean<DownloadDoc[]>(),
    create: (docs: Omit<DownloadDoc, '_id'>[], session: ClientSession) =>
      model.create(
        docs.map((d) => ({ _id: companyKey(d.companyId, d.id), ...d })),
        { session, ordered: true },
      ),
    remove: (companyId: CompanyId, id: number) => model.deleteOne({ _id: companyKey(companyId, id), companyId }),
  };
}
export type DownloadsRepo = ReturnType<typeof downloadsRepo>;
