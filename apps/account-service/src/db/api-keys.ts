import { Schema, Types, type Connection } from 'mongoose';

export interface ApiKeyDoc {
  _id: Types.ObjectId;
  companyId: string;
  name: string;
  prefix: string;
  hash: string;
  createdAt: Date;
  lastUsedAt?: Date;
  revokedAt?: Date;
}

const schema = new Schema<ApiKeyDoc>(
  {
    companyId: { type: String, required: true },
    name: { type: String, required: true },
    prefix: { type: String, required: true },
    hash: { type: String, required: true, unique: true },
    createdAt: { type: Date, required: true },
    lastUsedAt: Date,
    revokedAt: Date,
  },
  { versionKey: false },
);
schema.index({ companyId: 1, createdAt: 1 });

export function apiKeysRepo(conn: Connection) {
  const model = conn.model<ApiKeyDoc>('ApiKey', schema, 'api_keys');
  return {
    model,
    activeByHash: (hash: string) => model.findOne({ hash, revokedAt: { $exists: false } }).lean(),
    countActive: (companyId: string) => model.countDocuments({ companyId, revokedAt: { $exists: false } }),
    list: (companyId: string) => model.find({ companyId }).sort({ createdAt: 1 }).lean(),
    revoke: (companyId: string, id: Types.ObjectId) =>
      model.findOneAndUpdate({ _id: id, companyId, revokedAt: { $exists: false } }, { $set: { revokedAt: new Date() } }, { returnDocument: 'after' }).lean(),
    touch: (id: Types.ObjectId) => model.updateOne({ _id: id }, { $set: { lastUsedAt: new Date() } }),
  };
}
export type ApiKeysRepo = ReturnType<typeof apiKeysRepo>;
