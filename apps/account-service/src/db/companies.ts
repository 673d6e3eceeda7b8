import { Schema, type Connection, type ClientSession } from 'mongoose';
import { liveCompanyOf, type CompanyId } from '@inv/contracts';
import { driverCollection } from '@inv/service-kit';
import type { BankAccountDoc, CompanyDoc, PaymentTermDoc } from '../domain/company-doc';

const schema = new Schema<CompanyDoc>(
  {
    _id: String,
    name: { type: String, required: true },
    legalName: { type: String, default: '' },
    // empty until the company enters it (validation then names the missing field instead of failing the job)
    address: {
      line1: { type: String, default: '' },
      line2: String,
      postalCode: { type: String, default: '' },
      city: { type: String, default: '' },
      countryCode: { type: String, default: 'DE' },
    },
    vatId: String,
    taxNumber: String,
    peppolId: String,
    registrationId: String,
    registrationIdScheme: String,
    registrationCourt: String,
    sellerIdentifier: String,
    sellerIdentifierScheme: String,
    iban: String,
    bic: String,
    bankName: String,
    contactName: String,
    email: String,
    phone: String,
    website: String,
    managingDirectors: [String],
    defaultLanguage: String,
    demoFields: { type: [String], default: undefined },
    bankAccounts: [
      {
        _id: false,
        id: Number,
        iban: String,
        bic: String,
        bankName: String,
        accountHolder: String,
        isDefault: Boolean,
        demo: Boolean,
        createdAt: Date,
      },
    ],
    bankAccountsRev: Number,
    plan: { type: String, enum: ['free', 'pro'], required: true },
    planVersion: Number,
    ownerEmail: String,
    membersRev: Number,
    paymentTermDays: { type: Number, default: 14 },
    paymentTerms: {
      type: [
        {
          _id: false,
          id: Number,
          name: String,
          days: Number,
          discount: { type: { _id: false, percent: Number, days: Number }, default: undefined },
          textDe: String,
          textEn: String,
        },
      ],
      default: undefined,
    },
    paymentTermsRev: Number,
    defaultPaymentTermId: Number,
    defaultTemplateId: Number,
    smallBusiness: Boolean,
    logo: {
      type: { _id: false, key: String, contentType: String, width: Number, height: Number, size: Number, sha256: String, uploadedAt: Date },
      default: undefined,
    },
    vatCheck: {
      type: { _id: false, vatId: String, status: String, checkedAt: String, name: String, consultationNumber: String, fault: String },
      default: undefined,
    },
    createdAt: { type: Date, required: true },
    updatedAt: Date,
  },
  { versionKey: false },
);

export function companiesRepo(conn: Connection) {
  const model = conn.model<CompanyDoc>('Company', schema, 'companies');
  return {
    init: () => model.init(),
    /** With the driver: the seller profile of every finalization reads it, and mongoose's query costs 55–75 µs of CPU more. */
    /**
     * A test twin reads its live company (docs/test-mode.md: profile, bank accounts, terms, logo and plan are
     * shared read-only); the writes below take the id as given, so a twin's write finds no company.
     */
    byId: (companyId: CompanyId, session?: ClientSession): Promise<CompanyDoc | null> =>
      driverCollection(model).findOne({ _id: liveCompanyOf(companyId) }, { session }),
    /** Bumped in every transaction that changes members: concurrent member changes of a company conflict (last-owner rule). */
    bumpMembersRev: (companyId: CompanyId, session: ClientSession) =>
      model.updateOne({ _id: companyId }, { $inc: { membersRev: 1 } }, { session, strict: false }),
    /** Every company, oldest first (operator command). Unscoped by purpose. */
    listAcrossCompanies: (limit: number) =>
      model
        .find({}, { name: 1, plan: 1, createdAt: 1 })
        .sort({ createdAt: 1 })
        .limit(limit)
        .lean<Pick<CompanyDoc, '_id' | 'name' | 'plan' | 'createdAt'>[]>(),
    /**
     * Applies a plan change unless a newer one was applied already; answers the company as it was before,
     * or null when the company is unknown or the change is older than the one recorded.
     */
    applyPlan: (companyId: CompanyId, plan: CompanyDoc['plan'], version: number | undefined, session: ClientSession) =>
      model
        .findOneAndUpdate(
          version === undefined
            ? { _id: companyId }
            : { _id: companyId, $or: [{ planVersion: { $exists: false } }, { planVersion: { $lt: version } }] },
          { $set: { plan, ...(version === undefined ? {} : { planVersion: version }), updatedAt: new Date() } },
          { returnDocument: 'before', session },
        )
        .lean<CompanyDoc>(),
    insert: async (doc: CompanyDoc, session?: ClientSession) => void (await model.create([doc], { session })),
    update: (companyId: CompanyId, set: Record<string, unknown>, unset: Record<string, 1> = {}, session?: ClientSession) =>
      model
        .findOneAndUpdate(
          { _id: companyId },
          { $set: set, ...(Object.keys(unset).length ? { $unset: unset } : {}) },
          { returnDocument: 'after', session },
        )
        .lean<CompanyDoc>(),
    setPaymentTerms: (companyId: CompanyId, rev: number | undefined, after: PaymentTermDoc[], now: Date, session?: ClientSession) =>
      model
        .findOneAndUpdate(
          { _id: companyId, paymentTermsRev: rev ?? { $exists: false } },
          { $set: { paymentTerms: after, updatedAt: now }, $inc: { paymentTermsRev: 1 } },
          { returnDocument: 'after', session },
        )
        .lean<CompanyDoc>(),
    /** Stores a VIES verdict only while the company still has that VAT ID and only if it is not older than the stored one. */
    setVatCheck: (companyId: CompanyId, check: NonNullable<CompanyDoc['vatCheck']>) =>
      model.updateOne(
        {
          _id: companyId,
          vatId: check.vatId,
          $or: [
            { 'vatCheck.vatId': { $ne: check.vatId } },
            { 'vatCheck.checkedAt': { $exists: false } },
            { 'vatCheck.checkedAt': { $lte: check.checkedAt } },
          ],
        },
        { $set: { vatCheck: check } },
      ),
    /** Sets (or with undefined removes) the logo; answers the company as it was before, to remove the replaced object. */
    swapLogo: (companyId: CompanyId, logo: CompanyDoc['logo'], now: Date, session?: ClientSession) =>
      model
        .findOneAndUpdate(
          { _id: companyId },
          logo ? { $set: { logo, updatedAt: now } } : { $unset: { logo: 1 }, $set: { updatedAt: now } },
          { returnDocument: 'before', session },
        )
        .lean<CompanyDoc>(),
    /** Replaces the accounts only if nobody changed them meanwhile (rev); answers whether it did. */
    setBankAccounts: async (companyId: CompanyId, rev: number | undefined, after: BankAccountDoc[], now: Date, session?: ClientSession) =>
      (
        await model.updateOne(
          { _id: companyId, bankAccountsRev: rev ?? { $exists: false } },
          { $set: { bankAccounts: after, updatedAt: now }, $inc: { bankAccountsRev: 1 } },
          { session },
        )
      ).matchedCount === 1,
  };
}
export type CompaniesRepo = ReturnType<typeof companiesRepo>;
