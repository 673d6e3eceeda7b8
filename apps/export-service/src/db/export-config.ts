import { Schema, type Connection } from 'mongoose';

export interface ExportConfigDoc {
  _id: string; // companyId
  consultantNumber?: number;
  clientNumber?: number;
  chartOfAccounts: 'SKR03' | 'SKR04';
  fiscalYearStartMonth: number;
  updatedAt: Date;
}

const schema = new Schema<ExportConfigDoc>(
  { _id: String, consultantNumber: Number, clientNumber: Number, chartOfAccounts: { type: String, required: true }, fiscalYearStartMonth: { type: Number, required: true }, updatedAt: Date },
  { versionKey: false },
);

export function exportConfigRepo(conn: Connection) {
  const model = conn.model<ExportConfigDoc>('ExportConfig', schema, 'export_config');
  return { model, get: (companyId: string) => model.findById(companyId).lean() };
}
