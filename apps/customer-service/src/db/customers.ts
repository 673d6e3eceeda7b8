import { Schema, type Connection } from 'mongoose';

export type ContactType = 'B2B' | 'B2C';
export type AddressType = 'billing' | 'shipping';
export type VatStatus = 'valid' | 'invalid' | 'unavailable' | 'pending' | 'not_checked';

export interface AddressDoc {
  id: number;
  type: AddressType;
  isDefault: boolean;
  addressLine1: string;
  addressLine2?: string;
  company?: string;
  postalCode?: string;
  city: string;
  stateProvince?: string;
  countryCode: string;
  createdAt: Date;
}

/** The VAT check state of the customer's current vat_id, with the VIES evidence of the last answer. */
export interface VatCheckDoc {
  status: VatStatus;
  /** The VAT ID this state belongs to; answers for another (older) VAT ID are ignored. */
  vatId?: string;
  requestedAt?: Date;
  checkedAt?: string;
  requestDate?: string;
  name?: string;
  address?: string;
  consultationNumber?: string;
  fault?: string;
}

export interface CustomerDoc {
  _id: number;
  companyId: string;
  /** 10000-69999, unique per company, never reused: doubles as the debtor account in accounting. */
  customerNumber: number;
  contactType: ContactType;
  organizationName?: string;
  firstName?: string;
  lastName?: string;
  email?: string;
  /** Lower-cased e-mail for the exact (case-insensitive) lookup. */
  emailLower?: string;
  vatId?: string;
  language?: 'English' | 'German';
  paymentTermId?: number;
  defaultTemplateId?: number;
  salutation?: 'MR' | 'MRS' | 'MS' | 'OTHER';
  isActive: boolean;
  phone?: string;
  buyerReference?: string;
  addresses: AddressDoc[];
  vat: VatCheckDoc;
  /** Bumped by every change of the customer's own fields or addresses: the optimistic concurrency check. */
  rev: number;
  createdAt: Date;
  updatedAt: Date;
}

const addressSchema = new Schema<AddressDoc>(
  {
    id: { type: Number, required: true },
    type: { type: String, required: true, enum: ['billing', 'shipping'] },
    isDefault: { type: Boolean, required: true },
    addressLine1: { type: String, required: true },
    addressLine2: String,
    company: String,
    postalCode: String,
    city: { type: String, required: true },
    stateProvince: String,
    countryCode: { type: String, required: true },
    createdAt: { type: Date, required: true },
  },
  { _id: false },
);

const vatSchema = new Schema<VatCheckDoc>(
  {
    status: { type: String, required: true },
    vatId: String,
    requestedAt: Date,
    checkedAt: String,
    requestDate: String,
    name: String,
    address: String,
    consultationNumber: String,
    fault: String,
  },
  { _id: false },
);

const schema = new Schema<CustomerDoc>(
  {
    _id: Number,
    companyId: { type: String, required: true },
    customerNumber: { type: Number, required: true },
    contactType: { type: String, required: true, enum: ['B2B', 'B2C'] },
    organizationName: String,
    firstName: String,
    lastName: String,
    email: String,
    emailLower: String,
    vatId: String,
    language: String,
    paymentTermId: Number,
    defaultTemplateId: Number,
    salutation: String,
    isActive: { type: Boolean, required: true },
    phone: String,
    buyerReference: String,
    addresses: [addressSchema],
    vat: { type: vatSchema, required: true },
    rev: { type: Number, required: true },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { versionKey: false },
);
schema.index({ companyId: 1, customerNumber: 1 }, { unique: true });
schema.index({ companyId: 1, emailLower: 1 });
schema.index({ companyId: 1, paymentTermId: 1 }, { partialFilterExpression: { paymentTermId: { $exists: true } } });

export function customersRepo(conn: Connection) {
  const model = conn.model<CustomerDoc>('Customer', schema, 'customers');
  return {
    model,
    /** Every read is scoped by company: another company's id is simply not found. */
    get: (companyId: string, id: number) => model.findOne({ _id: id, companyId }).lean<CustomerDoc>(),
    countWithPaymentTerm: (companyId: string, paymentTermId: number) => model.countDocuments({ companyId, paymentTermId }),
  };
}
export type CustomersRepo = ReturnType<typeof customersRepo>;
