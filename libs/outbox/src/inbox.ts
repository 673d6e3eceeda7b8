import { Schema, type ClientSession, type Connection } from 'mongoose';
import { driverCollection } from '@inv/service-kit';

/** A message this service has applied (the inbox side of exactly-once effects). */
export interface ProcessedMessageDoc {
  _id: string; // the envelope id
  companyId: string;
  type: string;
  processedAt: Date;
}

const processedSchema = new Schema<ProcessedMessageDoc>(
  {
    _id: String,
    companyId: { type: String, required: true },
    type: { type: String, required: true },
    processedAt: { type: Date, required: true },
  },
  { versionKey: false },
);
// Redeliveries come within minutes; after 30 days the state rules of the consumers (statuses only move forward) suffice.
processedSchema.index({ processedAt: 1 }, { expireAfterSeconds: 30 * 24 * 3600 });

export function processedMessages(conn: Connection) {
  const model = conn.models.ProcessedEvent ?? conn.model<ProcessedMessageDoc>('ProcessedEvent', processedSchema, 'processed_events');
  return {
    init: () => model.init(),
    /**
     * Records the messages in the caller's transaction, in one round trip; an id recorded before fails the write
     * with a duplicate key.
     */
    record: async (msgs: Array<{ id: string; companyId: string; type: string }>, at: Date, session: ClientSession) =>
      // with the driver, as built (every field is set right here): once per received message in every consumer
      void (await driverCollection(model).insertMany(
        msgs.map((m) => ({ _id: m.id, companyId: m.companyId, type: m.type, processedAt: at })),
        { session },
      )),
  };
}
