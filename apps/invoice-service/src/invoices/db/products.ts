import type { CompanyId, TaxTreatmentId } from '@inv/contracts';
import { Schema, type Connection, type ClientSession } from 'mongoose';
import { companyKey, migrateToCompanyKeys } from '@inv/runtime';
import { productCounter } from '../../platform';

const productKey = companyKey;

export interface ProductDoc {
  /** `<companyId>:<id>`: ids are numbered per company (company-keys.ts). */
  _id: string;
  companyId: CompanyId;
  /** The public id: 1 for a company's first product. */
  id: number;
  name: string;
  description?: string;
  unitCode: string;
  unitPrice: string;
  /** Decimal fraction: "0.19". */
  taxRate: string;
  taxTreatmentId: TaxTreatmentId;
  sku?: string;
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}

const schema = new Schema<ProductDoc>(
  {
    _id: String,
    companyId: { type: String, required: true },
    id: { type: Number, required: true },
    name: { type: String, required: true },
    description: String,
    unitCode: { type: String, required: true },
    unitPrice: { type: String, required: true },
    taxRate: { type: String, required: true },
    taxTreatmentId: { type: String, required: true },
    sku: String,
    active: { type: Boolean, required: true },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { versionKey: false },
);
// SKU unique per company (products without one do not collide); list order and search stay on indexes.
schema.index({ companyId: 1, sku: 1 }, { unique: true, partialFilterExpression: { sku: { $type: 'string' } } });
schema.index({ companyId: 1, id: -1 });
schema.index({ companyId: 1, active: 1, id: -1 });

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Products of the catalog; every method is scoped by company (another company's id is simply not found). */
export function productsRepo(conn: Connection) {
  const model = conn.model<ProductDoc>('Product', schema, 'products');
  return {
    /** The indexes, and products stored before ids were per company brought to the current shape (company-keys.ts). */
    init: async () => {
      await model.init();
      await migrateToCompanyKeys(conn, { collection: 'products', counter: productCounter });
    },
    get: (companyId: CompanyId, id: number) => model.findOne({ _id: productKey(companyId, id), companyId }).lean<ProductDoc>(),
    insert: async (doc: Omit<ProductDoc, '_id'>, session?: ClientSession) =>
      void (await model.create([{ _id: productKey(doc.companyId, doc.id), ...doc }], { session })),
    update: (companyId: CompanyId, id: number, set: Partial<ProductDoc>, unset: Record<string, 1>, session?: ClientSession) =>
      model
        .findOneAndUpdate(
          { _id: productKey(companyId, id), companyId },
          { $set: set, ...(Object.keys(unset).length ? { $unset: unset } : {}) },
          { returnDocument: 'after', session },
        )
        .lean<ProductDoc>(),
    remove: async (companyId: CompanyId, id: number, session?: ClientSession) =>
      (await model.deleteOne({ _id: productKey(companyId, id), companyId }, { session })).deletedCount === 1,
    async list(companyId: CompanyId, q: { q?: string; active?: boolean; page: number; limit: number }) {
      const filter: Record<string, unknown> = { companyId };
      if (q.active !== undefined) filter.active = q.active;
      if (q.q) {
        const re = new RegExp(escapeRegex(q.q), 'i');
        filter.$or = [{ name: re }, { sku: re }];
      }
      const [items, total] = await Promise.all([
        model
          .find(filter)
          .sort({ id: -1 })
          .skip((q.page - 1) * q.limit)
          .limit(q.limit)
          .lean<ProductDoc[]>(),
        model.countDocuments(filter),
      ]);
      return { items, total };
    },
  };
}
export type ProductsRepo = ReturnType<typeof productsRepo>;
