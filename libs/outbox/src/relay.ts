import { context, propagation } from '@opentelemetry/api';
import type { Outbox, OutboxEntry, OutboxPublisher } from './outbox';

interface RelayLogger {
  warn(obj: Record<string, unknown>, msg?: string): void;
  error(obj: Record<string, unknown>, msg?: string): void;
}

export interface OutboxRelay {
  /**
   * Publish pending entries soon (call after a transaction that added entries committed). Given the entries
   * just committed, the relay publishes them without reading them back, unless older entries are pending.
   */
  kick(committed?: OutboxEntry[]): void;
  /** Publish everything pending now; resolves when the outbox was drained once. */
  flush(): Promise<void>;
  stop(): Promise<void>;
}

const BATCH = 100;

/**
 * Publishes outbox entries in creation order and marks them published. Runs on every kick and on a poll
 * interval, so entries written just before a crash are published after the restart. A message may be
 * published twice (crash between publish and mark); consumers dedupe by envelope id.
 *
 * Round trips: entries handed over by `kick` after their commit are published straight away when nothing
 * older is pending here (no read), and each run marks what it published with one update. The outbox is read
 * at start, on the poll interval, after a failed publish (which leaves older entries pending) and when a
 * run was kicked without entries.
 */
export function startOutboxRelay(outbox: Outbox, publish: OutboxPublisher, logger: RelayLogger, pollMs = 1000): OutboxRelay {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  /** Entries committed by this process and handed over, not yet published. */
  let handed: OutboxEntry[] = [];
  /** Whether the outbox may hold unpublished entries this process was not handed (start, failures, kicks without entries). */
  let mustRead = true;

  /** Publishes in order; marks the published ones with one update. Answers false after a failed publish. */
  const publishAll = async (batch: OutboxEntry[]): Promise<boolean> => {
    const published: string[] = [];
    try {
      for (const entry of batch) {
        if (stopped) return false;
        const parent = propagation.extract(context.active(), entry.trace ?? {});
        try {
          await context.with(parent, () => publish(entry));
        } catch (err) {
          await outbox.model.updateOne({ _id: entry._id }, { $inc: { attempts: 1 } });
          logger.warn({ err, id: entry._id, type: entry.type }, 'outbox publish failed; will retry');
          return false; // keep order: retry this entry on the next run
        }
        published.push(entry._id);
      }
      return true;
    } finally {
      if (published.length) await outbox.model.updateMany({ _id: { $in: published } }, { $set: { publishedAt: new Date() } });
    }
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
      const batch = await outbox.model
        .find({ publishedAt: { $exists: false } })
        .sort({ createdAt: 1 })
        .limit(BATCH)
        .lean<OutboxEntry[]>();
      if (batch.length === BATCH) mustRead = true;
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
    },
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      if (running) await running;
    },
  };
}
