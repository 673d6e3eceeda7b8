import { Schema, type Connection, type ClientSession } from 'mongoose';
import type { CompanyId } from '@inv/contracts';
import { companyKey, migrateToCompanyKeys } from '@inv/runtime';
import { driverCollection } from '@inv/service-kit';
import type { AddressDoc, CustomerDoc, VatCheckDoc } from '../domain/customer-doc';

/**
 * Customer and address ids are numbered per company (a company's first customer is 1, whatever other companies did):
 * one counter per company and kind.
 */
export const customerCounter = (companyId: CompanyId) => `customer:${companyId}`;
export const addressCounter = (companyId: CompanyId) => `address:${companyId}`;

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
    _id: String,
    companyId: { type: String, required: true },
    id: { type: Number, required: true },
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
    peppolId: String,
    codiceDestinatario: String,
    pec: String,
    codiceFiscale: String,
    partitaIva: String,
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

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What GET /customer/ filters by (already validated). */
export interface CustomerFilter {
  contactType?: string;
  isActive?: boolean;
  email?: string;
  /** Name, e-mail or customer number. */
  q?: string;
}

function filterOf(companyId: CompanyId, f: CustomerFilter): Record<string, unknown> {
  const filter: Record<string, unknown> = { companyId };
  if (f.contactType) filter.contactType = f.contactType;
  if (f.isActive !== undefined) filter.isActive = f.isActive;
  if (f.email) filter.emailLower = f.email.trim().toLowerCase();
  const term = f.q?.trim();
  if (term) {
    const re = new RegExp(escapeRegex(term), 'i');
    const or: Record<string, unknown>[] = [{ organizationName: re }, { firstName: re }, { lastName: re }, { email: re }];
    // "Erika Mustermann" (and "Anna Maria Schmidt" split at either space): first name and last name together
    const words = term.split(/\s+/);
    for (let i = 1; i < words.length; i++) {
      or.push({
        firstName: new RegExp(`^${escapeRegex(words.slice(0, i).join(' '))}`, 'i'),
        lastName: new RegExp(`^${escapeRegex(words.slice(i).join(' '))}`, 'i'),
      });
    }
    if (/^\d+$/.test(term)) or.push({ customerNumber: Number(term) });
    filter.$or = or;
  }
  return filter;
}

/** A verdict of VIES as stored on the customer. */
export type VatVerdict = Omit<VatCheckDoc, 'requestedAt' | 'vatId' | 'checkedAt'> & { vatId: string; checkedAt: string };

export function customersRepo(conn: Connection) {
  const model = conn.model<CustomerDoc>('Customer', schema, 'customers');
  return {
    /** The indexes, and customers stored before ids were per company brought to the current shape. */
    init: async () => {
      await model.init();
      await migrateToCompanyKeys(conn, { collection: 'customers', counter: customerCounter });
    },
    /**
     * Every read is scoped by company: another company's id is simply not found. With the driver: every invoice
     * reads its customer twice (the billing snapshot at creation and at finalization), and mongoose's query costs
     * 55–75 µs of CPU more (docs/performance.md).
     */
    get: (companyId: CompanyId, id: number): Promise<CustomerDoc | null> =>
      driverCollection(model).findOne({ _id: companyKey(companyId, id), companyId }),
    insert: async (doc: CustomerDoc, session?: ClientSession) => void (await model.create([doc], { session })),
    /**
     * Applies `set` only if nobody changed the customer since `rev` was read (another PUT, an address edit):
     * answers whether it did, so a concurrent change is never overwritten silently.
     */
    updateAtRev: async (companyId: CompanyId, id: number, rev: number, set: Record<string, unknown>, session?: ClientSession) =>
      (await model.updateOne({ _id: companyKey(companyId, id), companyId, rev }, { $set: set, $inc: { rev: 1 } }, { session }))
        .matchedCount === 1,
    /** Notes that a VIES check of `vatId` was asked for (only while the customer still has that VAT ID). */
    markVatRequested: (companyId: CompanyId, id: number, vatId: string, at: Date, session?: ClientSession) =>
      model.updateOne({ _id: companyKey(companyId, id), companyId, vatId }, { $set: { 'vat.requestedAt': at } }, { session }),
    /**
     * Stores a VIES verdict only while the customer still has that VAT ID (an answer for a replaced one is
     * stale) and only if it is not older than the stored one (answers can arrive out of order).
     */
    storeVatVerdict: (companyId: CompanyId, id: number, verdict: VatVerdict) =>
      model.updateOne(
        {
          _id: companyKey(companyId, id),
          companyId,
          vatId: verdict.vatId,
          $or: [
            { 'vat.vatId': { $ne: verdict.vatId } },
            { 'vat.checkedAt': { $exists: false } },
            { 'vat.checkedAt': { $lte: verdict.checkedAt } },
          ],
        },
        { $set: { vat: verdict } },
      ),
    async list(companyId: CompanyId, filter: CustomerFilter, page: { page: number; limit: number }) {
      const f = filterOf(companyId, filter);
      const [docs, total] = await Promise.all([
        model
          .find(f)
          .sort({ customerNumber: 1, id: 1 })
          .skip((page.page - 1) * page.limit)
          .limit(page.limit)
          .lean<CustomerDoc[]>(),
        model.countDocuments(f),
      ]);
      return { docs, total };
    },
    countWithPaymentTerm: (companyId: CompanyId, paymentTermId: number) => model.countDocuments({ companyId, paymentTermId }),
  };
}
export type CustomersRepo = ReturnType<typeof customersRepo>;
