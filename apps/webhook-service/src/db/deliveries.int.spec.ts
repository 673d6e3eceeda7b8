import mongoose, { type Connection } from 'mongoose';
import { asCompanyId } from '@inv/contracts';
import { testMongo } from '@inv/testing';
import { deliveryStore, type DeliveryDoc, type DeliveryStore } from './deliveries';
import { eventStore } from './events';

jest.setTimeout(30_000);

const company = asCompanyId('cmp_claims');

/** Workers (replicas) racing: for the same due deliveries each is held by one of them only; an event keeps one payload. */
describe('delivery claims', () => {
  let mongo: Awaited<ReturnType<typeof testMongo>>;
  let conn: Connection;
  let store: DeliveryStore;

  beforeAll(async () => {
    mongo = await testMongo();
    conn = await mongoose.createConnection(mongo.uri, { dbName: `webhook_claims_${process.pid}` }).asPromise();
    store = deliveryStore(conn);
    await store.init();
  });
  afterAll(async () => {
    await conn?.dropDatabase();
    await conn?.close();
    await mongo?.stop();
  });

  /** A chooser taking at most `per` of each endpoint (the worker's takes its slots: domain/fair-share.ts). */
  const upTo =
    (per: number) =>
    (due: DeliveryDoc[], limit: number): DeliveryDoc[] => {
      const taken = new Map<string, number>();
      return due.filter((d) => {
        const n = taken.get(d.endpointId) ?? 0;
        if (n >= per || [...taken.values()].reduce((a, b) => a + b, 0) >= limit) return false;
        taken.set(d.endpointId, n + 1);
        return true;
      });
    };
  const none = { endpoints: [], companies: [] };
  const queue = async (n: number, endpoints: string[], nextAttemptAt = new Date(Date.now() - 1000), companyId = company) =>
    store.insertMany(
      Array.from({ length: n }, (_, i) => ({
        companyId,
        endpointId: endpoints[i % endpoints.length]!,
        eventId: `evt_${Math.random().toString(16).slice(2)}`,
        eventType: 'invoice.created',
        status: 'pending' as const,
        attempts: 0,
        nextAttemptAt,
        attemptLog: [],
        createdAt: new Date(),
      })),
    );

  it('gives each due delivery to one worker, within the free slots per endpoint, and says when it took all', async () => {
    await store.model.deleteMany({});
    await queue(40, ['we_1', 'we_2', 'we_3', 'we_4', 'we_5']);
    await queue(3, ['we_1'], new Date(Date.now() + 60_000)); // not due yet
    const now = new Date();
    const lease = (ms: number) => new Date(now.getTime() + 10_000 + ms);
    const owners = ['w1', 'w2', 'w3', 'w4'];
    const results = await Promise.all(owners.map((owner, i) => store.claimSomeAcrossCompanies(now, lease(i), owner, none, upTo(3), 12)));
    const claimed = results.flatMap((r, i) => (r?.claimed ?? []).map((d) => ({ owner: owners[i]!, d })));
    const ids = claimed.map((c) => c.d._id.toHexString());
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of results) {
      const perEndpoint = new Map<string, number>();
      for (const d of r?.claimed ?? []) perEndpoint.set(d.endpointId, (perEndpoint.get(d.endpointId) ?? 0) + 1);
      expect(Math.max(0, ...perEndpoint.values())).toBeLessThanOrEqual(3);
      expect(r?.claimed.length ?? 0).toBeLessThanOrEqual(12);
    }
    // what each worker got is what MongoDB says it holds
    const held = await store.model.find({ leaseOwner: { $exists: true } }).lean<DeliveryDoc[]>();
    expect(held.map((d) => `${d._id.toHexString()}:${d.leaseOwner}`).sort()).toEqual(
      claimed.map((c) => `${c.d._id.toHexString()}:${c.owner}`).sort(),
    );
    expect(held.every((d) => d.nextAttemptAt!.getTime() <= now.getTime())).toBe(true);

    // the rest, then nothing: a claim that took every due one says so, and one that finds none answers null
    let rest = await store.claimSomeAcrossCompanies(now, lease(9), 'w9', none, upTo(100), 32);
    while (rest?.rest) rest = await store.claimSomeAcrossCompanies(now, lease(9), 'w9', none, upTo(100), 32);
    expect(await store.model.countDocuments({ leaseOwner: { $exists: false } })).toBe(3);
    expect(await store.claimSomeAcrossCompanies(now, lease(9), 'w9', none, upTo(100), 32)).toBeNull();
  });

  it("keeps an event's first payload: two replicas preparing it at once both send that one", async () => {
    const [one, two] = [eventStore(conn), eventStore(conn)];
    await one.init();
    const ids = ['evt_race_1', 'evt_race_2', 'evt_race_3'];
    await one.model.insertMany(
      ids.map((_id) => ({ _id, companyId: company, type: 'invoice.created', sequence: 1, occurredAt: new Date() })),
    );
    const answers = await Promise.all([
      ...ids.map((id) => one.snapshotAcrossCompanies(id, `one:${id}`)),
      ...ids.map((id) => two.snapshotAcrossCompanies(id, `two:${id}`)),
    ]);
    const stored = await one.model.find({ _id: { $in: ids } }).lean();
    for (const [i, id] of ids.entries()) {
      const kept = stored.find((d) => d._id === id)!.payload;
      expect([answers[i], answers[i + ids.length]]).toEqual([kept, kept]);
    }
  });

  it('skips busy endpoints and takes a delivery whose lease expired (its worker died)', async () => {
    await store.model.deleteMany({});
    const [a, b] = await queue(2, ['we_busy', 'we_free']);
    const past = new Date(Date.now() - 1);
    await store.model.updateOne({ _id: b!._id }, { $set: { leaseUntil: past, leaseOwner: 'dead' } });
    const now = new Date();
    const got = await store.claimSomeAcrossCompanies(
      now,
      new Date(now.getTime() + 10_000),
      'w1',
      { endpoints: ['we_busy'], companies: [] },
      upTo(4),
      8,
    );
    expect(got?.claimed.map((d) => d.endpointId)).toEqual(['we_free']);
    expect(got?.rest).toBe(false);
    expect((await store.model.findById(a!._id).lean<DeliveryDoc>())?.leaseOwner).toBeUndefined();
    expect((await store.model.findById(b!._id).lean<DeliveryDoc>())?.leaseOwner).toBe('w1');
  });

  it('skips companies at their limit, in single claims and batches', async () => {
    await store.model.deleteMany({});
    const busy = asCompanyId('cmp_claims_busy');
    await queue(3, ['we_b1', 'we_b2'], new Date(Date.now() - 2000), busy);
    const [free] = await queue(1, ['we_f1']);
    const now = new Date();
    const skip = { endpoints: [], companies: [busy] };
    const one = await store.claimAcrossCompanies(now, new Date(now.getTime() + 10_000), 'w1', skip);
    expect(one?._id.toHexString()).toBe(free!._id.toHexString());
    expect(await store.claimAcrossCompanies(now, new Date(now.getTime() + 10_000), 'w1', skip)).toBeNull();
    expect(await store.claimSomeAcrossCompanies(now, new Date(now.getTime() + 10_000), 'w1', skip, upTo(4), 8)).toBeNull();
    const rest = await store.claimSomeAcrossCompanies(now, new Date(now.getTime() + 10_000), 'w2', none, upTo(4), 8);
    expect(rest?.claimed.map((d) => d.companyId)).toEqual([busy, busy, busy]);
  });

  it('replay: queues the failed deliveries since a time and counts those still waiting for their automatic retry', async () => {
    await store.model.deleteMany({});
    const since = new Date(Date.now() - 60_000);
    const later = new Date(Date.now() + 300_000);
    const soon = new Date(Date.now() + 120_000);
    const row = (status: DeliveryDoc['status'], attempts: number, nextAttemptAt?: Date, createdAt = new Date()) => ({
      companyId: company,
      endpointId: 'we_replay',
      eventId: `evt_${Math.random().toString(16).slice(2)}`,
      eventType: 'invoice.created',
      status,
      attempts,
      ...(nextAttemptAt ? { nextAttemptAt } : {}),
      attemptLog: [],
      createdAt,
    });
    await store.insertMany([
      row('failed', 10),
      row('failed', 10, undefined, new Date(since.getTime() - 1000)), // before `since`: stays failed
      row('pending', 2, later),
      row('pending', 1, soon),
      row('pending', 0, new Date()), // never attempted: not waiting for a retry
      row('delivered', 1),
    ]);
    expect(await store.waitingForRetrySince(company, 'we_replay', since)).toEqual({ count: 2, next: soon });
    expect((await store.requeueFailedSince(company, 'we_replay', since, new Date())).modifiedCount).toBe(1);
    expect(await store.waitingForRetrySince(company, 'we_other', since)).toEqual({ count: 0, next: null });
    expect(await store.waitingForRetrySince(asCompanyId('cmp_other'), 'we_replay', since)).toEqual({ count: 0, next: null });
  });
});
