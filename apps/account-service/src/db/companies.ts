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
  plan: 'free' | 'pro';
  paymentTermDays: number;
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
    plan: { type: String, enum: ['free', 'pro'], required: true },
    paymentTermDays: { type: Number, default: 14 },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false },
);

export function companiesRepo(conn: Connection) {
  const model = conn.model<CompanyDoc>('Company', schema, 'companies');
  return {
    model,
    byId: (companyId: string) => model.findById(companyId).lean(),
  };
}
export type CompaniesRepo = ReturnType<typeof companiesRepo>;
