import { Schema, type ClientSession, type Connection } from 'mongoose';
import type { CompanyId } from '@inv/contracts';
import { driverCollection } from '@inv/service-kit';
import type { MappedEvent } from '../domain/event-mapping';
import { coalesced } from './coalesce';

/**
 * One webhook event: what it is about and, once the first delivery was prepared, its payload exactly as sent
 * (the snapshot every endpoint and every retry sends, byte for byte).
 */
export interface EventDoc {
  _id: string; // evt_<...>: the payload's `id` and the `webhook-id` header
  companyId: CompanyId;
  type: string;
  /** What the event is about (absent for a ping, whose payload is written at once). */
  mapped?: MappedEvent;
  sequence: number;
  occurredAt: Date;
  payload?: string;
}

interface SequenceDoc {
  _id: string; // `${companyId}:${resourceKey}`
  seq: number;
}

const eventSchema = new Schema<EventDoc>(
  {
    _id: String,
    companyId: { type: String, required: true },
    type: { type: String, required: true },
    mapped: Schema.Types.Mixed,
    sequence: Number,
    occurredAt: Date,
    payload: String,
  },
  { versionKey: false },
);
// events (with their payload snapshots) go with their deliveries (db/deliveries.ts DELIVERY_RETENTION_DAYS), a day later
eventSchema.index({ occurredAt: 1 }, { expireAfterSeconds: 31 * 86_400 });
const sequenceSchema = new Schema<SequenceDoc>({ _id: String, seq: Number }, { versionKey: false });

/** Events committed by this process kept in memory until their first preparation (the newest this many). */
const RECENT_KEPT = 2000;

export function eventStore(conn: Connection) {
  const model = conn.model<EventDoc>('WebhookEvent', eventSchema, 'events');
  const sequences = conn.model<SequenceDoc>('WebhookSequence', sequenceSchema, 'sequences');
  // the driver's calls, not mongoose's, on the paths run per event and per delivery (less CPU per call)
  const raw = driverCollection<EventDoc>(model);
  const rawSequences = driverCollection<SequenceDoc>(sequences);
  const recent = new Map<string, EventDoc>();
  const snapshots = coalesced<{ id: string; payload: string }, string>(async (items) => {
    const res = await raw.bulkWrite(
      items.map(({ id, payload }) => ({ updateOne: { filter: { _id: id, payload: { $exists: false } }, update: { $set: { payload } } } })),
      { ordered: false },
    );
    if (res.modifiedCount === items.length) return items.map((i) => i.payload);
    // some were stored before (another replica prepared them first): the stored ones count
    const stored = await raw.find({ _id: { $in: items.map((i) => i.id) } }, { projection: { payload: 1 } }).toArray();
    const byId = new Map(stored.map((d) => [d._id, d.payload!]));
    return items.map((i) => byId.get(i.id)!);
  });
  return {
    model,
    init: () => Promise.all([model.init(), sequences.init()]),
    /**
     * Takes the next numbers of several resources at once (a key may come several times: it advances by its count);
     * answers each key's last number taken.
     */
    async nextSequences(keys: string[], session: ClientSession): Promise<Map<string, number>> {
      const counts = new Map<string, number>();
      for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
      const ids = [...counts.keys()];
      if (ids.length === 1) {
        const doc = await rawSequences.findOneAndUpdate(
          { _id: ids[0]! },
          { $inc: { seq: counts.get(ids[0]!)! } },
          { upsert: true, returnDocument: 'after', session },
        );
        return new Map([[ids[0]!, doc!.seq]]);
      }
      await rawSequences.bulkWrite(
        ids.map((_id) => ({ updateOne: { filter: { _id }, update: { $inc: { seq: counts.get(_id)! } }, upsert: true } })),
        { session, ordered: false },
      );
      // the transaction reads its own writes
      const docs = await rawSequences.find({ _id: { $in: ids } }, { session }).toArray();
      return new Map(docs.map((d) => [d._id, d.seq]));
    },
    insert: (doc: EventDoc, session: ClientSession) => raw.insertOne(doc, { session }),
    insertMany: (docs: EventDoc[], session: ClientSession) => raw.insertMany(docs, { session }),
    /**
     * Keeps an event this process has just committed, so the first preparation of its payload needs no read. Only
     * what never changes is taken from it: a payload stored since (by another replica) still wins in `snapshot`.
     */
    remember(doc: EventDoc) {
      if (doc.payload) return;
      recent.set(doc._id, doc);
      if (recent.size > RECENT_KEPT) recent.delete(recent.keys().next().value!);
    },
    getAcrossCompanies: async (id: string): Promise<EventDoc | null> => {
      const kept = recent.get(id);
      if (kept) {
        recent.delete(id); // its payload is kept by the preparation (delivery/snapshots.ts)
        return kept;
      }
      return raw.findOne({ _id: id });
    },
    /**
     * Stores the payload unless one is stored already; answers the one that counts (the first). The snapshots of
     * events prepared together are written in one round trip.
     */
    snapshotAcrossCompanies: (id: string, payload: string): Promise<string> => snapshots.add({ id, payload }),
  };
}
export type EventStore = ReturnType<typeof eventStore>;
