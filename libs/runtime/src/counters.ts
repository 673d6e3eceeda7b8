import { Schema, type Connection } from 'mongoose';

interface Counter {
  _id: string;
  seq: number;
}
const counterSchema = new Schema<Counter>({ _id: String, seq: { type: Number, required: true } }, { versionKey: false });

/** Atomic integer sequences (public integer ids, invoice numbers): findOneAndUpdate $inc with upsert. */
export function createCounters(conn: Connection) {
  const model = conn.models.Counter ?? conn.model<Counter>('Counter', counterSchema, 'counters');
  return {
    async next(name: string, start = 1): Promise<number> {
      const doc = await model.findOneAndUpdate({ _id: name }, { $inc: { seq: 1 } }, { upsert: true, returnDocument: 'after', lean: true });
      // A sequence that must start above 1 (customer numbers from 10000) is offset, not pre-seeded.
      return (doc?.seq ?? 1) + start - 1;
    },
  };
}
export type Counters = ReturnType<typeof createCounters>;
