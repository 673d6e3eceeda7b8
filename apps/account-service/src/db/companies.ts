import { Schema, type Connection } from 'mongoose';

export interface CompanyDoc {
  _id: string;
  name: string;
  legalName: string;
  address: { line1: string; line2?: string; postalCode: string; city: string; countryCode: string };
  vatId?: string;
  taxNumber?: string;
  registrationId?: string;
  registrationCourt?: string;
  iban?: string;
  bic?: string;
  bankName?: string;
  contactName?: string;
  email?: string;
  phone?: string;
  website?: string;
  managingDirectors?: string[];
  defaultLanguage?: 'de' | 'en';
  bankAccounts?: BankAccountDoc[];
  /** Bumped on every bank-account change: concurrent changes cannot overwrite each other. */
  bankAccountsRev?: number;
  plan: 'free' | 'pro';
  paymentTermDays: number;
  createdAt: Date;
  updatedAt?: Date;
}

export interface BankAccountDoc {
  id: number;
  iban: string; // electronic format
  bic?: string;
  bankName?: string;
  accountHolder?: string;
  isDefault: boolean;
  createdAt: Date;
}

const schema = new Schema<CompanyDoc>(
  {
    _id: String,
    name: { type: String, required: true },
    legalName: { type: String, required: true },
    address: {
      line1: { type: String, required: true },
      line2: String,
      postalCode: { type: String, required: true },
      city: { type: String, required: true },
      countryCode: { type: String, required: true },
    },
    vatId: String,
    taxNumber: String,
    registrationId: String,
    registrationCourt: String,
    iban: String,
    bic: String,
    bankName: String,
    contactName: String,
    email: String,
    phone: String,
    website: String,
    managingDirectors: [String],
    defaultLanguage: String,
    bankAccounts: [{ _id: false, id: Number, iban: String, bic: String, bankName: String, accountHolder: String, isDefault: Boolean, createdAt: Date }],
    bankAccountsRev: Number,
    plan: { type: String, enum: ['free', 'pro'], required: true },
    paymentTermDays: { type: Number, default: 14 },
    createdAt: { type: Date, required: true },
    updatedAt: Date,
  },
  { versionKey: false },
);

export function companiesRepo(conn: Connection) {
  const model = conn.model<CompanyDoc>('Company', schema, 'companies');
  return {
    model,
    byId: (companyId: string) => model.findById(companyId).lean<CompanyDoc>(),
    update: (companyId: string, set: Record<string, unknown>, unset: Record<string, 1> = {}) =>
      model.findOneAndUpdate({ _id: companyId }, { $set: set, ...(Object.keys(unset).length ? { $unset: unset } : {}) }, { returnDocument: 'after' }).lean<CompanyDoc>(),
    setBankAccounts: (companyId: string, rev: number | undefined, after: BankAccountDoc[], now: Date) =>
      model.updateOne({ _id: companyId, bankAccountsRev: rev ?? { $exists: false } }, { $set: { bankAccounts: after, updatedAt: now }, $inc: { bankAccountsRev: 1 } }),
  };
}
export type CompaniesRepo = ReturnType<typeof companiesRepo>;
