import { Schema, type Connection } from 'mongoose';
import type { CompanyId } from '@inv/contracts';

export interface ExportConfigDoc {
  _id: string; // companyId
  consultantNumber?: number;
  clientNumber?: number;
  chartOfAccounts: 'SKR03' | 'SKR04';
  fiscalYearStartMonth: number;
  accountLength?: number;
  updatedAt: Date;
}

const schema = new Schema<ExportConfigDoc>(
  {
    _id: String,
    consultantNumber: Number,
    clientNumber: Number,
    chartOfAccounts: { type: String, required: true },
    fiscalYearStartMonth: { type: Number, required: true },
    accountLength: Number,
    updatedAt: Date,
  },
  { versionKey: false },
);

/** The effective configuration: what was saved, with the defaults for what was not. */
export interface ExportSettings {
  consultantNumber?: number;
  clientNumber?: number;
  chartOfAccounts: 'SKR03' | 'SKR04';
  fiscalYearStartMonth: number;
  accountLength: number;
}

export function exportConfigRepo(conn: Connection) {
  const model = conn.model<ExportConfigDoc>('ExportConfig', schema, 'export_config');
  return {
    init: () => model.init(),
    async get(companyId: CompanyId): Promise<ExportSettings> {
      const c = await model.findById(companyId).lean<ExportConfigDoc>();
      return {
        consultantNumber: c?.consultantNumber,
        clientNumber: c?.clientNumber,
        chartOfAccounts: c?.chartOfAccounts ?? 'SKR03',
        fiscalYearStartMonth: c?.fiscalYearStartMonth ?? 1,
        accountLength: c?.accountLength ?? 4,
      };
    },
    async save(companyId: CompanyId, s: ExportSettings, now: Date) {
      await model.updateOne({ _id: companyId }, { $set: { ...s, updatedAt: now } }, { upsert: true });
    },
  };
}
export type ExportConfigRepo = ReturnType<typeof exportConfigRepo>;
