import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { deliverOne } from '../usecases/deliver-one';
import type { DeliveryDoc } from '../db/deliveries';
import type { WebhookDeps } from './deps';

/** Most deliveries taken in one claim. */
const MAX_CLAIM_BATCH = 32;

export interface WorkerOptions {
  /** Deliveries in flight per endpoint: a slow endpoint holds at most this many slots. */
  endpointConcurrency: number;
  /** Deliveries in flight in this process. */
  globalConcurrency: number;
  pollMs: number;
  /** How long a picked delivery stays held (longer than one attempt can take). */
  leaseMs: number;
}

/**
 * Sends due deliveries. Picks them one at a time from MongoDB under a lease (survives kill -9: an expired lease
 * makes the delivery due again), up to the global limit, skipping endpoints that already have their share in
 * flight, so an endpoint that times out holds at most `endpointConcurrency` slots and the other companies'
 * deliveries go on beside it (no head-of-line blocking). Woken after every commit that queued deliveries and on a
 * poll interval (retries come due, leases of dead workers expire, other replicas queued work).
 */
export function deliveryWorker(deps: WebhookDeps, opts: WorkerOptions) {
  const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const perEndpoint = new Map<string, number>();
  const running = new Set<Promise<void>>();
  let filling = false;
  let again = false;
  let stopped = true;
  let timer: NodeJS.Timeout | undefined;
  /**
   * Counts the reasons to look for work (a wake, a poll tick); `drainedAt` is the count when a claim that skipped no
   * endpoint last found nothing. While they are equal, the end of an attempt claims nothing: there is no new work
   * until the next wake or tick (without this, every attempt's end made one more empty claim in MongoDB).
   */
  let looks = 0;
  let drainedAt = -1;
  /** The endpoints the wakes since the last claim named: new deliveries for several are claimed in one go. */
  let woken = new Set<string>();
  const free = (id: string) => opts.endpointConcurrency - (perEndpoint.get(id) ?? 0);

  /** Slots taken for deliveries being created already leased to this worker (`reserve`), until `adopt`. */
  let reserved = 0;
  const freeSlot = (endpointId: string) => {
    const n = (perEndpoint.get(endpointId) ?? 1) - 1;
    if (n > 0) perEndpoint.set(endpointId, n);
    else perEndpoint.delete(endpointId);
  };

  const start = (delivery: DeliveryDoc, slotTaken = false) => {
    const endpointId = delivery.endpointId;
    if (!slotTaken) perEndpoint.set(endpointId, (perEndpoint.get(endpointId) ?? 0) + 1);
    const task: Promise<void> = deliverOne(deps, delivery, owner)
      .catch((err: unknown) => deps.logger.error({ err, deliveryId: delivery._id.toHexString() }, 'webhook delivery failed unexpectedly'))
      .finally(() => {
        running.delete(task);
        freeSlot(endpointId);
        if (drainedAt !== looks) void fill();
      });
    running.add(task);
  };

  async function fill(): Promise<void> {
    if (stopped) return;
    if (filling) {
      again = true;
      return;
    }
    filling = true;
    try {
      do {
        again = false;
        while (!stopped && running.size + reserved < opts.globalConcurrency) {
          const busy = [...perEndpoint].filter(([, n]) => n >= opts.endpointConcurrency).map(([id]) => id);
          const now = deps.now();
          const lookedAt = looks;
          const leaseUntil = new Date(now.getTime() + opts.leaseMs);
          let slots = 0;
          for (const id of woken) slots += Math.max(0, free(id));
          woken = new Set();
          const batch = Math.min(slots, opts.globalConcurrency - running.size - reserved, MAX_CLAIM_BATCH);
          if (batch > 1) {
            // new deliveries for several endpoints (or several free slots of one): taken in one claim
            const some = await deps.deliveries.claimSome(now, leaseUntil, owner, busy, free, batch);
            for (const d of some?.claimed ?? []) start(d);
            // none due, or all taken: no claim more to find that out
            if (!some || !some.rest) {
              if (!busy.length) drainedAt = lookedAt;
              break;
            }
            if (some.claimed.length) continue; // else another worker took them: one at a time below
          }
          const delivery = await deps.deliveries.claim(now, leaseUntil, owner, busy);
          if (!delivery) {
            if (!busy.length) drainedAt = lookedAt;
            break;
          }
          start(delivery);
        }
      } while (again && !stopped);
    } catch (err) {
      deps.logger.warn({ err: (err as Error).message }, 'webhook worker: picking deliveries failed; next poll retries');
    } finally {
      filling = false;
    }
  }

  return {
    owner,
    /**
     * New deliveries are due (for `endpointIds` when given). Skipped when every one of those endpoints has its share
     * in flight: the end of one of those attempts looks for work anyway, and a claim now would find none.
     */
    wake(endpointIds?: readonly string[]) {
      looks++;
      if (endpointIds?.length && endpointIds.every((id) => (perEndpoint.get(id) ?? 0) >= opts.endpointConcurrency)) return;
      for (const id of endpointIds ?? []) woken.add(id);
      void fill();
    },
    /**
     * Takes a slot of each of these endpoints that has one free (and the process too) for a delivery about to be
     * created already leased to this worker: it starts at `adopt` without a claim (two round trips saved per event).
     * A worker killed before that leaves it leased, and it is taken once the lease expired, as any other.
     */
    reserve(endpointIds: readonly string[]): { endpointIds: string[]; owner: string; leaseUntil: Date } {
      const taken: string[] = [];
      for (const id of stopped ? [] : endpointIds) {
        if (running.size + reserved >= opts.globalConcurrency) break;
        if (free(id) <= 0) continue;
        perEndpoint.set(id, (perEndpoint.get(id) ?? 0) + 1);
        reserved++;
        taken.push(id);
      }
      return { endpointIds: taken, owner, leaseUntil: new Date(deps.now().getTime() + opts.leaseMs) };
    },
    /** Ends a reservation: the deliveries created leased to this worker start; the slots of the others are freed. */
    adopt(reservation: { endpointIds: string[] }, deliveries: DeliveryDoc[]) {
      const left = [...reservation.endpointIds];
      reserved -= left.length;
      for (const d of deliveries) {
        const i = left.indexOf(d.endpointId);
        if (i < 0) continue;
        left.splice(i, 1);
        if (stopped)
          freeSlot(d.endpointId); // leased: taken after its lease by whoever runs then
        else start(d, true);
      }
      for (const id of left) freeSlot(id);
      if (left.length && drainedAt !== looks) void fill();
    },
    start() {
      stopped = false;
      timer = setInterval(() => (looks++, void fill()), opts.pollMs);
      void fill();
    },
    /** Stops picking and waits for the attempts in flight (each bounded by the timeout). */
    async stop() {
      stopped = true;
      clearInterval(timer);
      await Promise.allSettled([...running]);
    },
    inFlight: () => running.size,
  };
}
export type DeliveryWorker = ReturnType<typeof deliveryWorker>;
