import { Schema, type ClientSession, type Connection } from 'mongoose';
import type { CompanyId } from '@inv/contracts';
import { driverCollection } from '@inv/service-kit';
import type { MappedEvent } from '../domain/event-mapping';

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

export function eventStore(conn: Connection) {
  const model = conn.model<EventDoc>('WebhookEvent', eventSchema, 'events');
  const sequences = conn.model<SequenceDoc>('WebhookSequence', sequenceSchema, 'sequences');
  // the driver's calls, not mongoose's, on the paths run per event and per delivery (less CPU per call)
  const raw = driverCollection<EventDoc>(model);
  const rawSequences = driverCollection<SequenceDoc>(sequences);
  return {
    model,
    init: () => Promise.all([model.init(), sequences.init()]),
    /** The next sequence number of one resource of a company (in the transaction that records the event). */
    async nextSequence(companyId: CompanyId, resourceKey: string, session: ClientSession): Promise<number> {
      const doc = await rawSequences.findOneAndUpdate(
        { _id: `${companyId}:${resourceKey}` },
        { $inc: { seq: 1 } },
        { upsert: true, returnDocument: 'after', session },
      );
      return doc!.seq;
    },
    insert: (doc: EventDoc, session: ClientSession) => raw.insertOne(doc, { session }),
    get: (id: string) => raw.findOne({ _id: id }),
    /** Stores the payload unless one is stored already; answers the one that counts (the first). */
    async snapshot(id: string, payload: string): Promise<string> {
      const doc = await raw.findOneAndUpdate(
        { _id: id, payload: { $exists: false } },
        { $set: { payload } },
        { returnDocument: 'after', projection: { payload: 1 } },
      );
      if (doc?.payload) return doc.payload;
      return (await raw.findOne({ _id: id }, { projection: { payload: 1 } }))!.payload!;
    },
  };
}
export type EventStore = ReturnType<typeof eventStore>;
