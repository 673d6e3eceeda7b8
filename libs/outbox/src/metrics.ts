import { Gauge } from 'prom-client';
import type { Outbox } from './outbox';

/** Outboxes of the services in this process, sampled when Prometheus scrapes. */
const watched = new Map<string, Outbox>();

const PENDING = { publishedAt: { $exists: false } };

async function sample(each: (service: string, outbox: Outbox) => Promise<void>): Promise<void> {
  await Promise.all(
    [...watched].map(
      ([service, outbox]) => each(service, outbox).catch(() => undefined), // the database is down: readiness says so; keep the last value
    ),
  );
}

const backlog = new Gauge({
  name: 'outbox_pending_entries',
  help: 'Outbox entries written but not yet published (sampled at scrape time)',
  labelNames: ['service'] as const,
  async collect() {
    await sample(async (service, outbox) => this.set({ service }, await outbox.model.countDocuments(PENDING)));
  },
});

const oldest = new Gauge({
  name: 'outbox_oldest_pending_age_seconds',
  help: 'Age of the oldest unpublished outbox entry, 0 when there is none (sampled at scrape time)',
  labelNames: ['service'] as const,
  async collect() {
    await sample(async (service, outbox) => {
      const first = await outbox.model.findOne(PENDING, { createdAt: 1 }).sort({ createdAt: 1 }).lean();
      this.set({ service }, first ? Math.max(0, (Date.now() - new Date(first.createdAt).getTime()) / 1000) : 0);
    });
  },
});

/** Reports this service's outbox backlog (count and oldest age) on /metrics; `unwatch` on stop. */
export function watchOutboxBacklog(service: string, outbox: Outbox): { unwatch(): void } {
  watched.set(service, outbox);
  return {
    unwatch: () => {
      if (watched.get(service) !== outbox) return;
      watched.delete(service);
      backlog.remove({ service });
      oldest.remove({ service });
    },
  };
}
