import { context, propagation } from '@opentelemetry/api';
import { driverCollection } from '@inv/service-kit';
import type { Outbox, OutboxPublisher } from './outbox';
import { HOLDING_PENDING, type HeldEntry, type PendingHolder, type PendingSource } from './pending';

interface RelayLogger {
  warn(obj: Record<string, unknown>, msg?: string): void;
  error(obj: Record<string, unknown>, msg?: string): void;
}

export interface OutboxRelay {
  /**
   * Publish pending entries soon (call after a transaction that added entries committed). Given the entries
   * just committed, the relay publishes them without reading them back, unless older entries are pending.
   */
  kick(committed?: HeldEntry[]): void;
  /** Publish everything pending now; resolves when the outbox was drained once. */
  flush(): Promise<void>;
  stop(): Promise<void>;
}

const BATCH = 100;

/**
 * Publishes outbox entries in creation order and marks them published. Runs on every kick and on a poll
 * interval, so entries written just before a crash are published after the restart. Its reads and marks go to
 * the driver's collection: they run in every service all the time, and a mongoose query costs 55–75 µs of CPU
 * more per call (apps/invoice-service/bench/mongo-calls.bench.ts). A message may be
 * published twice (crash between publish and mark); consumers dedupe by envelope id.
 *
 * A batch is published pipelined: every entry is handed to the broker in order, and then the confirms are
 * awaited together (one confirm round trip per batch instead of one per entry, which under load held the
 * next finalization's render command behind a queue of confirms). An entry that fails is retried on a later
 * run; its batch-mates that were confirmed are not held back (consumers do not rely on the order across a
 * failure: a redelivered message comes back after later ones anyway).
 *
 * Round trips: entries handed over by `kick` after their commit are published straight away when nothing
 * older is pending here (no read). Published entries are marked in the background, all that were published
 * within 100 ms in one update; a read of the outbox has the marks made first, so it never finds an entry
 * that was published already. The outbox is read at start, on the poll interval, after a
 * failed publish (which leaves older entries pending) and when a run was kicked without entries.
 */
export function startOutboxRelay(
  outbox: Outbox,
  publish: OutboxPublisher,
  logger: RelayLogger,
  pollMs = 1000,
  /** Collections whose documents keep their messages inside (pending.ts): read and marked like the outbox. */
  sources: PendingSource[] = [],
): OutboxRelay {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  /** Entries committed by this process and handed over, not yet published. */
  let handed: HeldEntry[] = [];
  /** Whether the outbox may hold unpublished entries this process was not handed (start, failures, kicks without entries). */
  let mustRead = true;
  const marks = publishedMarks(outbox, sources, logger);

  /** Publishes in order, pipelined; has the published ones marked. Answers false when any publish failed. */
  const publishAll = async (batch: HeldEntry[]): Promise<boolean> => {
    const sending: Array<Promise<unknown>> = [];
    for (const entry of batch) {
      if (stopped) break;
      const parent = propagation.extract(context.active(), entry.trace ?? {});
      const { heldBy: _heldBy, ...message } = entry;
      sending.push(context.with(parent, () => publish(message)));
    }
    const outcomes = await Promise.allSettled(sending);
    marks.add(batch.filter((_, i) => outcomes[i]?.status === 'fulfilled'));
    const failed = outcomes.findIndex((o) => o.status === 'rejected');
    if (failed < 0) return sending.length === batch.length;
    const entry = batch[failed];
    // (an entry kept in its document counts no attempts: the log line below is its record)
    if (!entry.heldBy) await driverCollection(outbox.model).updateOne({ _id: entry._id }, { $inc: { attempts: 1 } });
    logger.warn(
      { err: (outcomes[failed] as PromiseRejectedResult).reason, id: entry._id, type: entry.type },
      'outbox publish failed; will retry',
    );
    return false;
  };

  const drain = async (): Promise<void> => {
    for (;;) {
      if (!mustRead) {
        const batch = handed;
        handed = [];
        if (batch.length === 0) return;
        if (!(await publishAll(batch))) mustRead = true;
        continue;
      }
      mustRead = false;
      handed = []; // committed, so the read below finds them (in creation order with anything older)
      await marks.settled(); // what was published is marked before the read looks for what is not
      const [fromOutbox, ...held] = await Promise.all([
        driverCollection(outbox.model)
          .find({ publishedAt: { $exists: false } })
          .sort({ createdAt: 1 })
          .limit(BATCH)
          .toArray(),
        ...sources.map((source) => pendingIn(source)),
      ]);
      if (fromOutbox.length === BATCH || held.some((h) => h.full)) mustRead = true;
      // in creation order across the outbox and the documents (a sort that keeps equal times in the order read)
      const batch: HeldEntry[] = [...fromOutbox, ...held.flatMap((h) => h.entries)].sort(
        (a, b) => new Date(a.createdAt).getTime() - new Date(b.createdAt).getTime(),
      );
      if (batch.length > 0 && !(await publishAll(batch))) {
        mustRead = true;
        return;
      }
      // entries handed over while the read ran may have been in it
      const seen = new Set(batch.map((e) => e._id));
      handed = handed.filter((e) => !seen.has(e._id));
      if (!mustRead && handed.length === 0) return;
    }
  };

  const run = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = drain()
      .catch((err: unknown) => {
        mustRead = true;
        logger.error({ err }, 'outbox relay run failed');
      })
      .finally(() => {
        running = undefined;
        if (again && !stopped) {
          again = false;
          void run();
        }
      });
    return running;
  };

  const timer = setInterval(() => {
    mustRead = true;
    void run();
  }, pollMs);
  timer.unref();
  void run();

  return {
    kick: (committed) => {
      if (committed?.length) handed.push(...committed);
      else mustRead = true;
      void run();
    },
    flush: async () => {
      mustRead = true;
      await run();
      if (running) await running;
      await marks.settled();
    },
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      if (running) await running;
      await marks.settled();
    },
  };
}

/** The messages left in a source's documents (up to BATCH documents), each with the document that holds it. */
async function pendingIn(source: PendingSource): Promise<{ entries: HeldEntry[]; full: boolean }> {
  const docs = await source.collection
    .find(HOLDING_PENDING, { projection: { pendingMessages: 1 } })
    .limit(BATCH)
    .toArray();
  const entries = docs.flatMap((doc) =>
    (doc.pendingMessages ?? []).map((e): HeldEntry => ({ ...e, heldBy: { source: source.name, id: doc._id } })),
  );
  return { entries, full: docs.length === BATCH };
}

/**
 * Marks published entries in few updates: ids published within `lingerMs` (or while an update runs) go into
 * one update. Marking late costs nothing but a longer window in which a crash makes the relay publish an
 * entry again (consumers dedupe); a read of the outbox asks for the marks first (`settled`). A failed mark is
 * logged and dropped: those entries are published once more by a later read, as after a crash.
 */
function publishedMarks(outbox: Outbox, sources: PendingSource[], logger: RelayLogger, lingerMs = 100) {
  let pending: HeldEntry[] = [];
  let marking: Promise<void> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const byName = new Map(sources.map((s) => [s.name, s]));
  /** Outbox entries get their publishedAt (one update); entries kept in documents are pulled (one bulk write per source). */
  const mark = async (entries: HeldEntry[]) => {
    const ids = entries.filter((e) => !e.heldBy).map((e) => e._id);
    if (ids.length) await driverCollection(outbox.model).updateMany({ _id: { $in: ids } }, { $set: { publishedAt: new Date() } });
    const held = new Map<string, Map<PendingHolder['_id'], string[]>>();
    for (const e of entries) {
      if (!e.heldBy) continue;
      const docs = held.get(e.heldBy.source) ?? new Map<PendingHolder['_id'], string[]>();
      held.set(e.heldBy.source, docs);
      const ids = docs.get(e.heldBy.id);
      if (ids) ids.push(e._id);
      else docs.set(e.heldBy.id, [e._id]);
    }
    for (const [name, docs] of held) {
      const source = byName.get(name);
      if (!source) continue;
      await source.collection.bulkWrite(
        [...docs].map(([id, entryIds]) => ({
          updateOne: {
            filter: { _id: id },
            update: { $pull: { pendingMessages: { _id: { $in: entryIds } } } },
          },
        })),
        { ordered: false },
      );
    }
  };
  const loop = async () => {
    while (pending.length) {
      const entries = pending;
      pending = [];
      try {
        await mark(entries);
      } catch (err) {
        logger.warn({ err, entries: entries.length }, 'outbox: published entries could not be marked; they will be published again');
      }
    }
  };
  const markNow = (): void => {
    clearTimeout(timer);
    timer = undefined;
    if (marking || !pending.length) return;
    marking = loop().finally(() => {
      marking = undefined;
      if (pending.length) later(); // ids added after the loop looked for the last time
    });
  };
  const later = (): void => {
    if (timer || marking) return; // a running loop takes them too
    timer = setTimeout(markNow, lingerMs);
    timer.unref();
  };
  return {
    add(entries: HeldEntry[]) {
      pending.push(...entries);
      later();
    },
    /** Marks what is pending now and resolves when every id added so far is marked (or its mark failed). */
    async settled() {
      markNow();
      while (marking) await marking;
    },
  };
}
