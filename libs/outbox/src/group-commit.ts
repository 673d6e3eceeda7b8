import { setTimeout as sleep } from 'node:timers/promises';
import type { ClientSession } from 'mongoose';
import type { Changes, Emit } from './commit';

type InboxMessage = { id: string; companyId: string; type: string };

export interface GroupCommitSpec<T> {
  /** Items of one key are applied in order, one batch at a time (e.g. the company: one audit chain, one ledger). */
  key(item: T): string;
  /** The received message an item stands for, recorded in the inbox with the change. */
  inbox(item: T): InboxMessage;
  /** Applies a batch of items in the transaction. */
  apply(batch: T[], session: ClientSession, emit: Emit): Promise<void>;
  /** While items keep coming (a batch ended less than 200 ms ago), a batch first waits this long for more (default 50 ms). */
  lingerMs?: number;
  /** At most this many items per transaction (default 50; a consumer's prefetch bounds it anyway). */
  maxBatch?: number;
}

const BUSY_MS = 200;

/**
 * Exception to `commitOnce` (commit.ts), for the reason of round trips: a consumer that receives a message per
 * invoice or per audited action (the audit log, the customer ledger) would spend most of its MongoDB time on one
 * transaction per message; batching keeps the at-most-once record per message and costs one transaction per batch.
 *
 * Group commit for a consumer whose messages each make a small change: the messages of one key that arrive while
 * a batch commits, or within `lingerMs` while messages keep coming, are applied together in one transaction
 * (`commitAllOnce`), so a batch costs the MongoDB round trips of one message. A message after a quiet spell is
 * applied at once. A batch holding a message applied before, or failing, writes nothing and is then applied one
 * message at a time (`commitOnce` skips the repeat; only a message that fails on its own is failed). Each returned
 * promise settles when its item is committed, so the bus acknowledges a message only then, or with its error, and
 * the bus retries that message on its own.
 * One batch per key runs at a time in this process; another replica's batch conflicts and is retried by the
 * transaction, as single commits are.
 */
export function groupCommit<T>(
  changes: Pick<Changes, 'commitOnce' | 'commitAllOnce'>,
  spec: GroupCommitSpec<T>,
): (item: T) => Promise<void> {
  const lingerMs = spec.lingerMs ?? 50;
  const maxBatch = spec.maxBatch ?? 50;
  const queues = new Map<string, { waiting: Array<{ item: T; done: (err?: unknown) => void }>; running: boolean }>();
  let lastBatchEnded = 0;

  const applyBatch = async (batch: Array<{ item: T; done: (err?: unknown) => void }>) => {
    const items = batch.map((w) => w.item);
    if (items.length > 1) {
      const committed = await changes
        .commitAllOnce(items.map(spec.inbox), (session, emit) => spec.apply(items, session, emit))
        .catch(() => false); // nothing of the batch was written: the items are tried alone below
      if (committed) {
        for (const w of batch) w.done();
        return;
      }
    }
    // One item, a batch holding a repeat, or a batch that failed: one at a time, so the repeat is skipped and only
    // an item that cannot be applied fails (its batch-mates must not share its retries and end up parked with it).
    for (const w of batch) {
      try {
        await changes.commitOnce(spec.inbox(w.item), (session, emit) => spec.apply([w.item], session, emit));
        w.done();
      } catch (err) {
        w.done(err);
      }
    }
  };

  const drain = async (key: string, queue: { waiting: Array<{ item: T; done: (err?: unknown) => void }>; running: boolean }) => {
    queue.running = true;
    try {
      while (queue.waiting.length) {
        if (Date.now() - lastBatchEnded < BUSY_MS) await sleep(lingerMs);
        const batch = queue.waiting.splice(0, maxBatch);
        try {
          await applyBatch(batch);
        } catch (err) {
          for (const w of batch) w.done(err);
        }
        lastBatchEnded = Date.now();
      }
    } finally {
      queue.running = false;
      if (queues.get(key) === queue && queue.waiting.length === 0) queues.delete(key);
    }
  };

  return (item: T) =>
    new Promise<void>((resolve, reject) => {
      const key = spec.key(item);
      let queue = queues.get(key);
      if (!queue) queues.set(key, (queue = { waiting: [], running: false }));
      queue.waiting.push({ item, done: (err) => (err === undefined ? resolve() : reject(err)) });
      if (!queue.running) void drain(key, queue);
    });
}
