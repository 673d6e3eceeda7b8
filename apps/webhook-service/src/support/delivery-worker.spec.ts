import { Types } from 'mongoose';
import type { DeliveryDoc } from '../db/deliveries';
import type { WebhookDeps } from './deps';
import { deliveryWorker } from './delivery-worker';

/** Deliveries whose endpoint is gone: each attempt ends at once (abandoned), which is all the worker needs here. */
function fakeDeps(queue: Partial<DeliveryDoc>[]) {
  const claims: (string | undefined)[] = [];
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
      abandon: async () => undefined,
    },
  } as unknown as WebhookDeps;
  return { deps, claims };
}

const settle = () => new Promise((r) => setTimeout(r, 20));

describe('delivery worker', () => {
  it('makes no empty claim at the end of each attempt once the queue was found empty, until woken again', async () => {
    const queue = ['we_1', 'we_2', 'we_3', 'we_4', 'we_5'].map((endpointId) => ({ endpointId }) as Partial<DeliveryDoc>);
    const { deps, claims } = fakeDeps(queue);
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
      expect(claims.slice(before).filter(Boolean)).toEqual(['we_6']);
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
});
