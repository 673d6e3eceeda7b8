import { randomUUID } from 'node:crypto';
import { context, propagation } from '@opentelemetry/api';
import { Schema, type ClientSession, type Connection, type Model } from 'mongoose';
import type { CompanyId } from '@inv/contracts';
import { AS_BUILT, driverCollection } from '@inv/service-kit';

/** A message waiting to be published; `_id` becomes the envelope id, so a re-publish is deduplicable. */
export interface OutboxEntry {
  _id: string;
  kind: 'event' | 'command';
  type: string;
  /** The company the message was committed for (as OutboxMessage gave it). */
  companyId: CompanyId;
  data: unknown;
  correlationId?: string;
  /** Who caused the message (the envelope's actor). */
  actor?: Record<string, string>;
  /** W3C trace context at the time of the write, so the published message continues the same trace. */
  trace?: Record<string, string>;
  createdAt: Date;
  publishedAt?: Date;
  attempts: number;
}

export interface OutboxMessage {
  kind: 'event' | 'command';
  type: string;
  /** The company the message is published for: a CompanyId, as every tenant-scoped write takes it. */
  companyId: CompanyId;
  data: unknown;
  /** Deterministic id when a retry of the same business step must produce the same message. */
  id?: string;
  correlationId?: string;
  /** Who caused the message (the envelope's actor): ids and the client address, never a secret. */
  actor?: Record<string, string>;
}

/** What the relay needs from the bus: publish one message with a given envelope id. */
export type OutboxPublisher = (entry: OutboxEntry) => Promise<void>;

const outboxSchema = new Schema<OutboxEntry>(
  {
    _id: { type: String },
    kind: { type: String, required: true, enum: ['event', 'command'] },
    type: { type: String, required: true },
    companyId: { type: String, required: true },
    data: { type: Schema.Types.Mixed, required: true },
    correlationId: String,
    actor: { type: Schema.Types.Mixed, default: undefined },
    trace: { type: Schema.Types.Mixed },
    createdAt: { type: Date, required: true },
    publishedAt: { type: Date },
    attempts: { type: Number, default: 0 },
  },
  { versionKey: false, minimize: false },
);
outboxSchema.index({ publishedAt: 1, createdAt: 1 });
// Published entries are kept a week for inspection, then expire.
outboxSchema.index(
  { publishedAt: 1 },
  { expireAfterSeconds: 7 * 24 * 3600, partialFilterExpression: { publishedAt: { $exists: true } }, name: 'published_ttl' },
);

export interface Outbox {
  model: Model<OutboxEntry>;
  /**
   * Stores messages, inside the caller's transaction when a session is given, and answers the stored entries.
   * Hand them to `relay.kick(entries)` after the commit.
   */
  add(messages: OutboxMessage[], session?: ClientSession): Promise<OutboxEntry[]>;
}

/** Entries for messages written now: ids, the active trace, the time. */
export function outboxEntries(messages: OutboxMessage[]): OutboxEntry[] {
  const trace: Record<string, string> = {};
  propagation.inject(context.active(), trace);
  const now = new Date();
  return messages.map((m): OutboxEntry => ({
    _id: m.id ?? randomUUID(),
    kind: m.kind,
    type: m.type,
    companyId: m.companyId,
    data: m.data,
    ...(m.correlationId !== undefined ? { correlationId: m.correlationId } : {}),
    ...(m.actor ? { actor: m.actor } : {}),
    trace,
    createdAt: now,
    attempts: 0,
  }));
}

export function createOutbox(conn: Connection): Outbox {
  const model = conn.models.Outbox ?? conn.model<OutboxEntry>('Outbox', outboxSchema, 'outbox');
  return {
    model,
    async add(messages, session) {
      const docs = outboxEntries(messages);
      // Written as built, without mongoose documents. Every entry is made right here, and casting and
      // validating each one (with its whole payload, which can be an invoice snapshot) cost more than the insert.
      // AS_BUILT: an absent optional field stays absent (as mongoose left it), never null; the relay
      // publishes what it reads back, and a message contract takes undefined for an optional field, not null.
      await driverCollection(model).insertMany(docs, { ...AS_BUILT, session });
      return docs;
    },
  };
}
