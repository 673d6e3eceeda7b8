import { Schema, type ClientSession, type Connection } from 'mongoose';
import type { CompanyId } from '@inv/contracts';
import type { MappingSettings } from '../domain/mapping-rules';

interface MappingsDoc extends MappingSettings {
  _id: string; // companyId
  updatedAt: Date;
}

const schema = new Schema<MappingsDoc>(
  {
    _id: String,
    rows: [
      {
        _id: false,
        treatment: { type: String, required: true },
        rate: { type: String, default: null },
        account: { type: Number, required: true },
      },
    ],
    receivablesAccount: Number,
    debtorAccounts: String,
    collectiveDebtorAccount: Number,
    bankAccount: Number,
    discountAccountStandard: Number,
    discountAccountReduced: Number,
    discountAccountUntaxed: Number,
    expenseAccount: Number,
    updatedAt: Date,
  },
  { versionKey: false },
);

/** The company's saved account assignments (only what differs from or adds to the chart's defaults). */
export function mappingsRepo(conn: Connection) {
  const model = conn.model<MappingsDoc>('AccountMappings', schema, 'account_mappings');
  return {
    init: () => model.init(),
    get: (companyId: CompanyId) => model.findById(companyId).lean<MappingsDoc>(),
    save: (companyId: CompanyId, s: MappingSettings, now: Date) =>
      model.updateOne({ _id: companyId }, { $set: { ...s, updatedAt: now } }, { upsert: true }),
    reset: (companyId: CompanyId, session?: ClientSession) => model.deleteOne({ _id: companyId }, { session }),
  };
}
export type MappingsRepo = ReturnType<typeof mappingsRepo>;
