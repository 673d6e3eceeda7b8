import { Types } from 'mongoose';
import type { DeliveryDoc } from '../db/deliveries';
import type { WebhookDeps } from './deps';
import { deliveryWorker } from './delivery-worker';

/** Deliveries whose endpoint is gone: each attempt ends at once (abandoned), which is all the worker needs here. */
function fakeDeps(queue: Partial<DeliveryDoc>[]) {
  const claims: (string | undefined)[] = [];
  const batches: string[][] = [];
  const deps = {
    now: () => new Date(),
    logger: { error: () => undefined, warn: () => undefined },
    endpoints: { enabledCached: async () => [], get: async () => null },
    deliveries: {
      claim: async (_now: Date, _lease: Date, _owner: string, busy: string[]) => {
        const i = queue.findIndex((d) => !busy.includes(d.endpointId!));
        const next = i < 0 ? undefined : queue.splice(i, 1)[0];
        claims.push(next?.endpointId);
        return next ? { _id: new Types.ObjectId(), eventId: 'evt_1', attempts: 0, ...next } : null;
      },
      claimSome: async (_now: Date, _lease: Date, _owner: string, busy: string[], free: (id: string) => number, limit: number) => {
        if (!queue.length) return null;
        const taken: Partial<DeliveryDoc>[] = [];
        const per = new Map<string, number>();
        for (const d of [...queue]) {
          const n = per.get(d.endpointId!) ?? 0;
          if (taken.length >= limit || busy.includes(d.endpointId!) || n >= free(d.endpointId!)) continue;
          per.set(d.endpointId!, n + 1);
          taken.push(...queue.splice(queue.indexOf(d), 1));
        }
        batches.push(taken.map((d) => d.endpointId!));
        return { claimed: taken.map((d) => ({ _id: new Types.ObjectId(), eventId: 'evt_1', attempts: 0, ...d })), rest: queue.length > 0 };
      },
      abandon: async () => undefined,
    },
  } as unknown as WebhookDeps;
  return { deps, claims, batches };
}

const settle = () => new Promise((r) => setTimeout(r, 20));

describe('delivery worker', () => {
  it('makes no empty claim at the end of each attempt once the queue was found empty, until woken again', async () => {
    const queue = ['we_1', 'we_2', 'we_3', 'we_4', 'we_5'].map((endpointId) => ({ endpointId }) as Partial<DeliveryDoc>);
    const { deps, claims, batches } = fakeDeps(queue);
    const worker = deliveryWorker(deps, { endpointConcurrency: 4, globalConcurrency: 64, pollMs: 60_000, leaseMs: 1000 });
    worker.start();
    try {
      await settle();
      // five deliveries, then the claim(s) of the pass that found the queue empty (one more when an attempt ended
      // during that pass), not one per attempt's end
      expect(claims.slice(0, 5)).toEqual(['we_1', 'we_2', 'we_3', 'we_4', 'we_5']);
      expect(claims.length - 5).toBeLessThanOrEqual(2);
      expect(worker.inFlight()).toBe(0);
      const before = claims.length;
      await settle();
      expect(claims.length).toBe(before);
      queue.push({ endpointId: 'we_6' });
      worker.wake(['we_6']);
      await settle();
      // taken by one claim (of up to the endpoint's free slots) that saw all there was: no empty claim after it
      expect([...claims.slice(before), ...batches.flat()].filter(Boolean)).toEqual(['we_6']);
      expect(claims.length - before).toBeLessThanOrEqual(3);
    } finally {
      await worker.stop();
    }
  });

  it('claims again at the end of an attempt when an endpoint at its limit was skipped', async () => {
    const queue = Array.from({ length: 3 }, () => ({ endpointId: 'we_1' }) as Partial<DeliveryDoc>);
    const { deps, claims } = fakeDeps(queue);
    const worker = deliveryWorker(deps, { endpointConcurrency: 1, globalConcurrency: 64, pollMs: 60_000, leaseMs: 1000 });
    worker.start();
    try {
      await settle();
      // each attempt's end looks for the endpoint's next delivery
      expect(claims.filter(Boolean)).toEqual(['we_1', 'we_1', 'we_1']);
    } finally {
      await worker.stop();
    }
  });

  it('reserves slots for deliveries created leased to it, within the limits, and starts them without a claim', async () => {
    const { deps, claims, batches } = fakeDeps([]);
    const worker = deliveryWorker(deps, { endpointConcurrency: 1, globalConcurrency: 3, pollMs: 60_000, leaseMs: 1000 });
    worker.start();
    try {
      await settle();
      const before = claims.length;
      const first = worker.reserve(['we_1', 'we_1', 'we_2']);
      expect(first.endpointIds).toEqual(['we_1', 'we_2']); // we_1's limit is 1
      expect(first.owner).toBe(worker.owner);
      const second = worker.reserve(['we_3', 'we_4']);
      expect(second.endpointIds).toEqual(['we_3']); // 3 in all
      // we_2's delivery was not created (its transaction failed): its slot is free again, we_1's starts
      const leased = { _id: new Types.ObjectId(), endpointId: 'we_1', eventId: 'evt_1', attempts: 0 } as DeliveryDoc;
      worker.adopt(first, [leased]);
      worker.adopt(second, []);
      await settle();
      expect(worker.reserve(['we_1', 'we_2', 'we_3']).endpointIds).toEqual(['we_1', 'we_2', 'we_3']);
      expect(batches).toEqual([]);
      expect(claims.slice(before).filter(Boolean)).toEqual([]);
    } finally {
      await worker.stop();
    }
  });

  it("claims an event's deliveries to several endpoints in one claim, within each endpoint's limit", async () => {
    const { deps, claims, batches } = fakeDeps([]);
    const worker = deliveryWorker(deps, { endpointConcurrency: 1, globalConcurrency: 64, pollMs: 60_000, leaseMs: 1000 });
    worker.start();
    try {
      await settle();
      const before = claims.length;
      const queue = ['we_1', 'we_2', 'we_3', 'we_1'];
      // the deliveries appear after the start (its claim found none), as an event's commit makes them
      const fresh = fakeDeps(queue.map((endpointId) => ({ endpointId }) as Partial<DeliveryDoc>));
      Object.assign(deps.deliveries, fresh.deps.deliveries);
      worker.wake(['we_1', 'we_2', 'we_3']);
      await settle();
      // one claim for the three endpoints (we_1's second delivery waits for its first: limit 1), then single claims
      expect(fresh.batches[0]).toEqual(['we_1', 'we_2', 'we_3']);
      expect(fresh.claims.filter(Boolean)).toEqual(['we_1']);
      expect(claims.length).toBe(before);
      expect(batches).toEqual([]);
    } finally {
      await worker.stop();
    }
  });
});
