import { context, propagation } from '@opentelemetry/api';
import type { Outbox, OutboxPublisher } from './outbox';

interface RelayLogger {
  warn(obj: Record<string, unknown>, msg?: string): void;
  error(obj: Record<string, unknown>, msg?: string): void;
}

export interface OutboxRelay {
  /** Publish pending entries soon (call after a transaction that added entries committed). */
  kick(): void;
  /** Publish everything pending now; resolves when the outbox was drained once. */
  flush(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Publishes outbox entries in creation order and marks them published. Runs on every kick and on a poll
 * interval, so entries written just before a crash are published after the restart. A message may be
 * published twice (crash between publish and mark); consumers dedupe by envelope id.
 */
export function startOutboxRelay(outbox: Outbox, publish: OutboxPublisher, logger: RelayLogger, pollMs = 1000): OutboxRelay {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  const drain = async (): Promise<void> => {
    for (;;) {
      const batch = await outbox.model.find({ publishedAt: { $exists: false } }).sort({ createdAt: 1 }).limit(100).lean();
      if (batch.length === 0) return;
      for (const entry of batch) {
        if (stopped) return;
        const parent = propagation.extract(context.active(), entry.trace ?? {});
        try {
          await context.with(parent, () => publish(entry));
        } catch (err) {
          await outbox.model.updateOne({ _id: entry._id }, { $inc: { attempts: 1 } });
          logger.warn({ err, id: entry._id, type: entry.type }, 'outbox publish failed; will retry');
          return; // keep order: retry this entry on the next run
        }
        await outbox.model.updateOne({ _id: entry._id }, { $set: { publishedAt: new Date() } });
      }
    }
  };

  const run = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = drain()
      .catch((err: unknown) => logger.error({ err }, 'outbox relay run failed'))
      .finally(() => {
        running = undefined;
        if (again && !stopped) {
          again = false;
          void run();
        }
      });
    return running;
  };

  const timer = setInterval(() => void run(), pollMs);
  timer.unref();
  void run();

  return {
    kick: () => void run(),
    flush: async () => {
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
