import { Schema, type Connection } from 'mongoose';
import { driverCollection } from '@inv/service-kit';

interface Counter {
  _id: string;
  seq: number;
}
const counterSchema = new Schema<Counter>({ _id: String, seq: { type: Number, required: true } }, { versionKey: false });

/** Atomic integer sequences (public integer ids, invoice numbers): findOneAndUpdate $inc with upsert. */
export function createCounters(conn: Connection) {
  const model = conn.models.Counter ?? conn.model<Counter>('Counter', counterSchema, 'counters');
  // The driver's call, not mongoose's: a counter is taken at every creation of a public id (an invoice, a
  // customer, a position's product) and mongoose's query costs 55–75 µs of CPU more for this one-field document.
  const raw = driverCollection<Counter>(model);
  return {
    async next(name: string, start = 1): Promise<number> {
      const doc = await raw.findOneAndUpdate({ _id: name }, { $inc: { seq: 1 } }, { upsert: true, returnDocument: 'after' });
      // A sequence that must start above 1 (customer numbers from 10000) is offset, not pre-seeded.
      return (doc?.seq ?? 1) + start - 1;
    },
    /**
     * Moves the counter to at least `value` (never back), so that `next` answers above it: for a sequence that
     * continues after ids given out before it existed. Idempotent.
     */
    async atLeast(name: string, value: number): Promise<void> {
      await raw.updateOne({ _id: name }, { $max: { seq: value } }, { upsert: true });
    },
    /**
     * Starts a counter that does not exist yet above `floor()` (ids given out before it existed); a counter that
     * exists is left alone, so the floor is computed once per counter, not at every start. Safe when several
     * processes race: `$max` never moves a counter back.
     */
    async startAbove(name: string, floor: () => Promise<number>): Promise<void> {
      if (await raw.findOne({ _id: name })) return;
      await raw.updateOne({ _id: name }, { $max: { seq: await floor() } }, { upsert: true });
    },
    /**
     * Ids of the same counter taken `size` at a time ($inc by `size`) and handed out from memory: one round
     * trip per `size` ids. Unique across processes (with `next` too), increasing within one process, but
     * not gapless: ids left in a block when the process stops are never used. For public ids only, never
     * for numbers that must have no gaps.
     */
    inBlocks(name: string, size: number): () => Promise<number> {
      let nextId = 1;
      let last = 0;
      let refill: Promise<void> | undefined;
      return async () => {
        while (nextId > last) {
          refill ??= (async () => {
            const doc = await raw.findOneAndUpdate({ _id: name }, { $inc: { seq: size } }, { upsert: true, returnDocument: 'after' });
            last = doc!.seq;
            nextId = last - size + 1;
          })().finally(() => {
            refill = undefined;
          });
          await refill;
        }
        return nextId++;
      };
    },
  };
}
export type Counters = ReturnType<typeof createCounters>;
