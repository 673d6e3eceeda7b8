import { Types } from 'mongoose';
import type { DeliveryDoc, Skip } from '../db/deliveries';
import type { WebhookDeps } from '../support/deps';
import { deliveryWorker } from './delivery-worker';

/**
 * Deliveries whose endpoint is gone: each attempt ends when it is abandoned, at once unless `hold` is set (then when
 * `letGo` is called), which is all the worker needs here.
 */
function fakeDeps(queue: Partial<DeliveryDoc>[]) {
  const claims: (string | undefined)[] = [];
  const batches: string[][] = [];
  const skips: Skip[] = [];
  const held: (() => void)[] = [];
  const control = { hold: false };
  const doc = (d: Partial<DeliveryDoc>) =>
    ({ _id: new Types.ObjectId(), eventId: 'evt_1', attempts: 0, companyId: 'cmp_1', ...d }) as DeliveryDoc;
  const skipped = (skip: Skip, d: Partial<DeliveryDoc>) =>
    skip.endpoints.includes(d.endpointId!) || skip.companies.includes(d.companyId ?? 'cmp_1');
  const deps = {
    now: () => new Date(),
    logger: { error: () => undefined, warn: () => undefined },
    endpoints: { enabledCached: async () => [], get: async () => null },
    deliveries: {
      claimAcrossCompanies: async (_now: Date, _lease: Date, _owner: string, skip: Skip) => {
        skips.push(skip);
        const i = queue.findIndex((d) => !skipped(skip, d));
        const next = i < 0 ? undefined : queue.splice(i, 1)[0];
        claims.push(next?.endpointId);
        return next ? doc(next) : null;
      },
      claimSomeAcrossCompanies: async (
        _now: Date,
        _lease: Date,
        _owner: string,
        skip: Skip,
        choose: (due: DeliveryDoc[], limit: number) => DeliveryDoc[],
        limit: number,
      ) => {
        skips.push(skip);
        const due = queue.filter((d) => !skipped(skip, d)).slice(0, limit * 2);
        if (!due.length) return null;
        const docs = due.map(doc);
        const chosen = choose(docs, limit);
        for (const d of chosen) queue.splice(queue.indexOf(due[docs.indexOf(d)]!), 1);
        batches.push(chosen.map((d) => d.endpointId));
        return { claimed: chosen, rest: queue.length > 0 };
      },
      abandonAcrossCompanies: () => (control.hold ? new Promise<void>((r) => held.push(r)) : Promise.resolve()),
      releaseAcrossCompanies: async () => undefined,
    },
  } as unknown as WebhookDeps;
  const letGo = () => held.splice(0).forEach((r) => r());
  return { deps, claims, batches, skips, control, letGo };
}

const limits = { endpointConcurrency: 4, companyConcurrency: 16, globalConcurrency: 64, slowMs: 1000, pollMs: 60_000, leaseMs: 1000 };
const settle = () => new Promise((r) => setTimeout(r, 20));

describe('delivery worker', () => {
  it('makes no empty claim at the end of each attempt once the queue was found empty, until woken again', async () => {
    const queue = ['we_1', 'we_2', 'we_3', 'we_4', 'we_5'].map((endpointId) => ({ endpointId }) as Partial<DeliveryDoc>);
    const { deps, claims, batches } = fakeDeps(queue);
    const worker = deliveryWorker(deps, limits);
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
    const worker = deliveryWorker(deps, { ...limits, endpointConcurrency: 1 });
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
    const worker = deliveryWorker(deps, { ...limits, endpointConcurrency: 1, globalConcurrency: 6, companyConcurrency: 3 });
    worker.start();
    try {
      await settle();
      const before = claims.length;
      const first = worker.reserve('cmp_1', ['we_1', 'we_1', 'we_2']);
      expect(first.endpointIds).toEqual(['we_1', 'we_2']); // we_1's limit is 1
      expect(first.owner).toBe(worker.owner);
      const second = worker.reserve('cmp_1', ['we_3', 'we_4']);
      expect(second.endpointIds).toEqual(['we_3']); // 3 for the company
      expect(worker.reserve('cmp_2', ['we_5']).endpointIds).toEqual(['we_5']); // another company's slot
      // we_2's delivery was not created (its transaction failed): its slot is free again, we_1's starts
      const leased = { _id: new Types.ObjectId(), companyId: 'cmp_1', endpointId: 'we_1', eventId: 'evt_1', attempts: 0 } as DeliveryDoc;
      worker.adopt(first, [leased]);
      worker.adopt(second, []);
      await settle();
      expect(worker.reserve('cmp_1', ['we_1', 'we_2', 'we_3']).endpointIds).toEqual(['we_1', 'we_2', 'we_3']);
      expect(batches).toEqual([]);
      expect(claims.slice(before).filter(Boolean)).toEqual([]);
    } finally {
      await worker.stop();
    }
  });

  it("claims an event's deliveries to several endpoints in one claim, within each endpoint's limit", async () => {
    const { deps, claims, batches } = fakeDeps([]);
    const worker = deliveryWorker(deps, { ...limits, endpointConcurrency: 1 });
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

  it("takes at most the company's share: the claims skip a company at its limit and another company's delivery goes on", async () => {
    const queue: Partial<DeliveryDoc>[] = [
      ...['we_a1', 'we_a2', 'we_a3', 'we_a4'].flatMap((endpointId) => [1, 2].map(() => ({ companyId: 'cmp_a' as never, endpointId }))),
      { companyId: 'cmp_b' as never, endpointId: 'we_b1' },
    ];
    const { deps, skips, control, letGo } = fakeDeps(queue);
    control.hold = true;
    const worker = deliveryWorker(deps, { ...limits, companyConcurrency: 3 });
    worker.start();
    try {
      await settle();
      expect(worker.share().of('cmp_a')).toBe(3);
      expect(worker.share().of('cmp_b')).toBe(1);
      expect(worker.inFlight()).toBe(4);
      expect(skips.at(-1)?.companies).toEqual(['cmp_a']);
      expect(queue).toHaveLength(5);
      letGo();
      await settle();
      letGo();
      await settle();
      letGo();
      await settle();
      expect(queue).toHaveLength(0);
    } finally {
      control.hold = false;
      letGo();
      await worker.stop();
    }
  });
});
