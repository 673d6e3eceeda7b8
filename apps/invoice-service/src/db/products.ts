import type { CompanyId, TaxTreatmentId } from '@inv/contracts';
import { Schema, type Connection, type ClientSession } from 'mongoose';

export interface ProductDoc {
  _id: number;
  companyId: CompanyId;
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
    _id: Number,
    companyId: { type: String, required: true },
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
schema.index({ companyId: 1, _id: -1 });
schema.index({ companyId: 1, active: 1, _id: -1 });

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Products of the catalog; every method is scoped by company (another company's id is simply not found). */
export function productsRepo(conn: Connection) {
  const model = conn.model<ProductDoc>('Product', schema, 'products');
  return {
    init: () => model.init(),
    get: (companyId: CompanyId, id: number) => model.findOne({ _id: id, companyId }).lean<ProductDoc>(),
    insert: async (doc: ProductDoc, session?: ClientSession) => void (await model.create([doc], { session })),
    update: (companyId: CompanyId, id: number, set: Partial<ProductDoc>, unset: Record<string, 1>, session?: ClientSession) =>
      model
        .findOneAndUpdate(
          { _id: id, companyId },
          { $set: set, ...(Object.keys(unset).length ? { $unset: unset } : {}) },
          { returnDocument: 'after', session },
        )
        .lean<ProductDoc>(),
    remove: async (companyId: CompanyId, id: number, session?: ClientSession) =>
      (await model.deleteOne({ _id: id, companyId }, { session })).deletedCount === 1,
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
          .sort({ _id: -1 })
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
