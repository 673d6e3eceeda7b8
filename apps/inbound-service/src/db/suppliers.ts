import { Schema, type ClientSession, type Connection } from 'mongoose';
import type { CompanyId } from '@inv/contracts';
import { AS_BUILT, driverCollection } from '@inv/service-kit';

export interface SupplierDoc {
  _id: string; // `${companyId}:${id}`
  companyId: CompanyId;
  id: number;
  name: string;
  vatId?: string;
  peppolId?: string;
  ibans: string[];
  createdAt: Date;
  updatedAt: Date;
}

const schema = new Schema<SupplierDoc>({ _id: String }, { strict: false, versionKey: false });
schema.index({ companyId: 1, id: 1 }, { unique: true });
schema.index({ companyId: 1, vatId: 1 });
schema.index({ companyId: 1, peppolId: 1 });
schema.index({ companyId: 1, ibans: 1 });

/** Most register entries one matching reads (a sender matches few). */
const MATCH_LIMIT = 10;

export function suppliers(conn: Connection) {
  const model = conn.models.InboundSupplier ?? conn.model<SupplierDoc>('InboundSupplier', schema, 'suppliers');
  const raw = driverCollection<SupplierDoc>(model);
  const key = (companyId: CompanyId, id: number) => `${companyId}:${id}`;
  return {
    init: () => model.createIndexes(),
    insert: (doc: Omit<SupplierDoc, '_id'>, session?: ClientSession) =>
      raw.insertOne({ _id: key(doc.companyId, doc.id), ...doc }, { ...AS_BUILT, session }),
    get: (companyId: CompanyId, id: number) => raw.findOne({ _id: key(companyId, id), companyId }),
    async replace(
      companyId: CompanyId,
      id: number,
      fields: Pick<SupplierDoc, 'name' | 'vatId' | 'peppolId' | 'ibans' | 'updatedAt'>,
      session?: ClientSession,
    ) {
      const unset: Record<string, ''> = {};
      if (fields.vatId === undefined) unset.vatId = '';
      if (fields.peppolId === undefined) unset.peppolId = '';
      const set = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
      return raw.findOneAndUpdate(
        { _id: key(companyId, id), companyId },
        { $set: set, ...(Object.keys(unset).length ? { $unset: unset } : {}) },
        { returnDocument: 'after', session },
      );
    },
    remove: (companyId: CompanyId, id: number, session?: ClientSession) =>
      raw.findOneAndDelete({ _id: key(companyId, id), companyId }, { session }),
    async list(companyId: CompanyId, page: number, limit: number) {
      const [items, total] = await Promise.all([
        raw
          .find({ companyId })
          .sort({ id: 1 })
          .skip((page - 1) * limit)
          .limit(limit)
          .toArray(),
        raw.countDocuments({ companyId }),
      ]);
      return { items, total };
    },
    /** Register entries naming one of the sender's identifiers (the domain decides which one wins). */
    candidates(companyId: CompanyId, ids: { vatId?: string; peppolId?: string; ibans: string[] }) {
      const or: Record<string, unknown>[] = [];
      if (ids.vatId) or.push({ vatId: ids.vatId });
      if (ids.peppolId) or.push({ peppolId: ids.peppolId });
      if (ids.ibans.length) or.push({ ibans: { $in: ids.ibans } });
      if (!or.length) return Promise.resolve([] as SupplierDoc[]);
      return raw.find({ companyId, $or: or }).sort({ id: 1 }).limit(MATCH_LIMIT).toArray();
    },
  };
}
export type Suppliers = ReturnType<typeof suppliers>;
