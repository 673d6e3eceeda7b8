import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { deliverOne } from '../usecases/deliver-one';
import type { DeliveryDoc } from '../db/deliveries';
import { fairLimits, fairShare, type Slot } from '../domain/fair-share';
import type { Reservation, WebhookDeps } from '../support/deps';

/** Most deliveries taken in one claim. */
const MAX_CLAIM_BATCH = 32;

export interface WorkerOptions {
  /** Deliveries in flight per endpoint: a slow endpoint holds at most this many slots. */
  endpointConcurrency: number;
  /** Deliveries in flight per company (at most half of `globalConcurrency` is used: domain/fair-share.ts). */
  companyConcurrency: number;
  /** Deliveries in flight in this process. */
  globalConcurrency: number;
  /** An attempt that takes this long or longer (or times out) makes its endpoint slow (domain/fair-share.ts). */
  slowMs: number;
  pollMs: number;
  /** How long a picked delivery stays held (longer than one attempt can take). */
  leaseMs: number;
}

/**
 * Sends due deliveries. Picks them from MongoDB under a lease (survives kill -9: an expired lease makes the
 * delivery due again), sharing the process's slots between companies (domain/fair-share.ts): the claims skip the
 * endpoints and companies that have their share in flight, so an endpoint that times out holds at most
 * `endpointConcurrency` slots, a company at most `companyConcurrency`, and a company's endpoints that time out
 * only a quarter of that: the other companies' deliveries go on beside them (no head-of-line blocking). Woken after
 * every commit that queued deliveries and on a poll interval (retries come due, leases of dead workers expire,
 * other replicas queued work).
 */
export function deliveryWorker(deps: WebhookDeps, opts: WorkerOptions) {
  const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const share = fairShare(
    fairLimits({ global: opts.globalConcurrency, endpoint: opts.endpointConcurrency, company: opts.companyConcurrency }),
  );
  const running = new Set<Promise<void>>();
  let filling = false;
  let again = false;
  let stopped = true;
  let timer: NodeJS.Timeout | undefined;
  /**
   * Counts the reasons to look for work (a wake, a poll tick); `drainedAt` is the count when a claim that skipped
   * nothing last found nothing. While they are equal, the end of an attempt claims nothing: there is no new work
   * until the next wake or tick (without this, every attempt's end made one more empty claim in MongoDB).
   */
  let looks = 0;
  let drainedAt = -1;
  /** The endpoints the wakes since the last claim named: new deliveries for several are claimed in one go. */
  let woken = new Set<string>();

  const start = (delivery: DeliveryDoc, slot: Slot) => {
    // a POST still running at the slow threshold makes its endpoint slow at once (not only when it times out); the
    // time to prepare the payload (the owner's GET) is not the receiver's
    let slowTimer: NodeJS.Timeout | undefined;
    const post = {
      sending: () => void (slowTimer = setTimeout(() => share.slowDown(slot), opts.slowMs)),
      sent: () => clearTimeout(slowTimer),
    };
    const task: Promise<void> = deliverOne(deps, delivery, owner, post)
      .then((sent) => {
        if (sent) share.observe(slot.companyId, slot.endpointId, sent.error === 'timeout' || sent.durationMs >= opts.slowMs);
      })
      .catch((err: unknown) => deps.logger.error({ err, deliveryId: delivery._id.toHexString() }, 'webhook delivery failed unexpectedly'))
      .finally(() => {
        clearTimeout(slowTimer);
        running.delete(task);
        share.release(slot);
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
        while (!stopped && share.free() > 0) {
          const skip = share.blocked();
          const skipsNothing = !skip.endpoints.length && !skip.companies.length;
          const now = deps.now();
          const lookedAt = looks;
          const leaseUntil = new Date(now.getTime() + opts.leaseMs);
          let slots = 0;
          for (const id of woken) slots += Math.max(0, share.endpointFree(id));
          woken = new Set();
          const batch = Math.min(slots, share.free(), MAX_CLAIM_BATCH);
          if (batch > 1) {
            // new deliveries for several endpoints (or several free slots of one): taken in one claim; the chooser
            // takes their slots at once, so no limit is passed while the claim is on its way
            const slotOf = new Map<string, Slot>();
            const choose = (due: DeliveryDoc[], limit: number) =>
              due.filter((d) => {
                if (slotOf.size >= limit) return false;
                const slot = share.take(d.companyId, d.endpointId);
                if (slot) slotOf.set(d._id.toHexString(), slot);
                return slot !== undefined;
              });
            let some: Awaited<ReturnType<typeof deps.deliveries.claimSomeAcrossCompanies>>;
            try {
              some = await deps.deliveries.claimSomeAcrossCompanies(now, leaseUntil, owner, skip, choose, batch);
            } catch (err) {
              for (const slot of slotOf.values()) share.release(slot);
              throw err;
            }
            for (const d of some?.claimed ?? []) {
              const id = d._id.toHexString();
              start(d, slotOf.get(id)!);
              slotOf.delete(id);
            }
            // chosen, but another worker took them first
            for (const slot of slotOf.values()) share.release(slot);
            // none due, or all taken: no claim more to find that out
            if (!some || !some.rest) {
              if (skipsNothing) drainedAt = lookedAt;
              break;
            }
            if (some.claimed.length) continue; // else another worker took them: one at a time below
          }
          const delivery = await deps.deliveries.claimAcrossCompanies(now, leaseUntil, owner, skip);
          if (!delivery) {
            if (skipsNothing) drainedAt = lookedAt;
            break;
          }
          const slot = share.take(delivery.companyId, delivery.endpointId);
          if (slot) start(delivery, slot);
          // its company or endpoint filled up while the claim was on its way (a reservation): given back, due as it was
          else await deps.deliveries.releaseAcrossCompanies(delivery._id, owner, delivery.nextAttemptAt ?? now);
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
      if (endpointIds?.length && endpointIds.every((id) => share.endpointFree(id) <= 0)) return;
      for (const id of endpointIds ?? []) woken.add(id);
      void fill();
    },
    /**
     * Takes a slot of each of these endpoints of the company that has one free (within every limit) for a delivery
     * about to be created already leased to this worker: it starts at `adopt` without a claim (two round trips saved
     * per event). A worker killed before that leaves it leased, and it is taken once the lease expired, as any other.
     */
    reserve(companyId: string, endpointIds: readonly string[]): Reservation {
      const slots: Slot[] = [];
      for (const id of stopped ? [] : endpointIds) {
        const slot = share.take(companyId, id);
        if (slot) slots.push(slot);
      }
      return { endpointIds: slots.map((s) => s.endpointId), slots, owner, leaseUntil: new Date(deps.now().getTime() + opts.leaseMs) };
    },
    /** Ends a reservation: the deliveries created leased to this worker start; the slots of the others are freed. */
    adopt(reservation: Reservation, deliveries: DeliveryDoc[]) {
      const left = [...reservation.slots];
      for (const d of deliveries) {
        const i = left.findIndex((s) => s.endpointId === d.endpointId);
        if (i < 0) continue;
        const [slot] = left.splice(i, 1);
        if (stopped)
          share.release(slot!); // leased: taken after its lease by whoever runs then
        else start(d, slot!);
      }
      for (const slot of left) share.release(slot);
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
    /** The slots in use: in all, by slow endpoints, per company (tests, benchmarks). */
    share: () => ({ ...share.stats(), of: share.inFlightOf }),
  };
}
export type DeliveryWorker = ReturnType<typeof deliveryWorker>;
