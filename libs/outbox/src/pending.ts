import type { mongo } from 'mongoose';
import type { OutboxEntry } from './outbox';

/**
 * Messages kept inside the document whose change they announce, in its `pendingMessages` array, until the relay
 * has published them: the change and its messages are one atomic single-document write (`$push` with the change),
 * where a separate outbox insert needs a transaction (two more round trips) or, written after the change, is lost
 * when the process dies between the two. The relay publishes them like outbox entries and then `$pull`s them; it
 * finds the ones left behind (a crash between the write and the publish) by a partial index of the collection.
 * For changes of one document that announce messages often (a draft invoice's positions).
 * Exception to `commit` (commit.ts): use it only for a change confined to one document, where saving the
 * transaction's round trips matters; the service registers the collection with `keepPendingIn` and hands the
 * written entries to the relay with `handOver` (libs/runtime service-runtime.ts).
 */
export const PENDING_FIELD = 'pendingMessages';

/** A document that may hold pending messages. */
export interface PendingHolder {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any id type (an invoice's is a number)
  _id: any;
  pendingMessages?: OutboxEntry[];
}

/** A collection whose documents may hold pending messages. */
export interface PendingSource {
  name: string;
  collection: mongo.Collection<PendingHolder>;
}

/** An entry handed to the relay, with the document that holds it when it is kept inside one. */
export interface HeldEntry extends OutboxEntry {
  heldBy?: { source: string; id: PendingHolder['_id'] };
}

/**
 * The filter of the documents holding pending messages. It names the index's key, so that MongoDB answers it from
 * the partial index below (a filter on `pendingMessages.0` would scan the whole collection on every relay poll).
 */
export const HOLDING_PENDING = { [`${PENDING_FIELD}._id`]: { $exists: true } };

/** The index that finds documents holding pending messages (only those are in it). Create it with the collection. */
export const PENDING_INDEX = {
  key: { [`${PENDING_FIELD}._id`]: 1 },
  name: 'pending_messages',
  partialFilterExpression: HOLDING_PENDING,
} as const;

/** The update that keeps `entries` in the document with the change: merge it into the change's update (nothing for none). */
export const pushPending = (entries: OutboxEntry[]) => (entries.length ? { $push: { [PENDING_FIELD]: { $each: entries } } } : {});
