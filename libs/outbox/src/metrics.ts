import { Gauge } from 'prom-client';
import type { Outbox } from './outbox';
import { HOLDING_PENDING as HOLDING, type PendingSource } from './pending';

interface Watched {
  outbox: Outbox;
  /** Collections whose documents keep pending messages (pending.ts), counted with the outbox. */
  sources: () => PendingSource[];
}

/** Outboxes of the services in this process, sampled when Prometheus scrapes. */
const watched = new Map<string, Watched>();

const PENDING = { publishedAt: { $exists: false } };

async function sample(each: (service: string, w: Watched) => Promise<void>): Promise<void> {
  await Promise.all(
    [...watched].map(
      ([service, outbox]) => each(service, outbox).catch(() => undefined), // the database is down: readiness says so; keep the last value
    ),
  );
}

const backlog = new Gauge({
  name: 'outbox_pending_entries',
  help: 'Outbox entries written but not yet published, and documents holding messages not yet published (sampled at scrape time)',
  labelNames: ['service'] as const,
  async collect() {
    await sample(async (service, { outbox, sources }) => {
      const counts = await Promise.all([
        outbox.model.countDocuments(PENDING),
        ...sources().map((s) => s.collection.countDocuments(HOLDING)),
      ]);
      this.set(
        { service },
        counts.reduce((a, b) => a + b, 0),
      );
    });
  },
});

const oldest = new Gauge({
  name: 'outbox_oldest_pending_age_seconds',
  help: 'Age of the oldest unpublished outbox entry, 0 when there is none (sampled at scrape time)',
  labelNames: ['service'] as const,
  async collect() {
    await sample(async (service, { outbox, sources }) => {
      const first = await outbox.model.findOne(PENDING, { createdAt: 1 }).sort({ createdAt: 1 }).lean();
      const times = first ? [new Date(first.createdAt).getTime()] : [];
      for (const source of sources()) {
        // the documents holding messages are few (the relay empties them within milliseconds); the first 100 suffice
        const docs = await source.collection
          .find(HOLDING, { projection: { 'pendingMessages.createdAt': 1 } })
          .limit(100)
          .toArray();
        for (const d of docs) for (const e of d.pendingMessages ?? []) times.push(new Date(e.createdAt).getTime());
      }
      this.set({ service }, times.length ? Math.max(0, (Date.now() - Math.min(...times)) / 1000) : 0);
    });
  },
});

/** Reports this service's outbox backlog (count and oldest age) on /metrics; `unwatch` on stop. */
export function watchOutboxBacklog(service: string, outbox: Outbox, sources: () => PendingSource[] = () => []): { unwatch(): void } {
  watched.set(service, { outbox, sources });
  return {
    unwatch: () => {
      if (watched.get(service)?.outbox !== outbox) return;
      watched.delete(service);
      backlog.remove({ service });
      oldest.remove({ service });
    },
  };
}
