import type { Bus } from '@inv/bus';
import { asCompanyId, type Messages } from '@inv/contracts';
import { deleteBrokerObjects, peerBus, testEnv, testMongo, uniquePrefix, waitFor } from '@inv/testing';
import { quotaConfig } from './config';
import { quotaStore } from './db/quota-store';
import { createQuotaService } from './quota-service';
import { usageOf } from './usecases/usage';

jest.setTimeout(60_000);

describe('quota-service', () => {
  const prefix = uniquePrefix();
  let mongo: Awaited<ReturnType<typeof testMongo>>;
  let service: Awaited<ReturnType<typeof createQuotaService>>;
  let peer: Bus<Messages>;
  const at = '2026-11-21T10:00:00Z';
  const planChanges: any[] = [];

  beforeAll(async () => {
    mongo = await testMongo();
    service = await createQuotaService(quotaConfig.parse(testEnv(prefix, mongo.uri, { QUOTA_UNLIMITED_COMPANIES: 'cmp_bench' })));
    await service.start();
    peer = peerBus(prefix);
    // account-service as the fallback source of plans: it knows cmp_missed_event (whose event was lost)
    peer.serveRpc('account.company-plan.v1', async (msg) =>
      ['cmp_missed_event', 'cmp_plan'].includes(msg.companyId) ? { found: true, plan: 'pro' as const } : { found: false },
    );
    peer.onEvent(
      'plan-log',
      ['company.plan-changed.v1'],
      async (msg) => void planChanges.push({ companyId: msg.companyId, ...(msg.data as object) }),
    );
    await peer.start();
  });
  afterAll(async () => {
    await service?.stop();
    await peer?.stop();
    await deleteBrokerObjects(prefix);
    await mongo?.stop();
  });

  const reserve = (companyId: string, reservationId: string, when = at) =>
    peer.callRpc('quota.reserve.v1', companyId, { reservationId, at: when });
  /** The usage in the month of `at`, read through the use case behind GET /quota/ on a connection of its own to the service's database. */
  const usage = (companyId: string) => {
    const conn = service.runtime.conn.useDb(service.runtime.conn.name, { useCache: false });
    return usageOf(
      {
        store: quotaStore(conn),
        bus: service.runtime.bus,
        commit: service.runtime.commit,
        logger: service.runtime.logger,
        unlimited: new Set(['cmp_bench']),
      },
      asCompanyId(companyId),
      new Date(at),
    );
  };

  it('grants a free company 3 finalizations a month, then answers with usage and the reset date', async () => {
    for (let i = 1; i <= 3; i++)
      expect(await reserve('cmp_free', `job-${i}@2026-11`)).toMatchObject({ granted: true, used: i, limit: 3, plan: 'free' });
    expect(await reserve('cmp_free', 'job-4@2026-11')).toEqual({
      granted: false,
      used: 3,
      limit: 3,
      reset_date: '2026-12-01',
      plan: 'free',
    });
    expect(await reserve('cmp_free', 'job-5@2026-12', '2026-12-01T00:00:00Z')).toMatchObject({ granted: true, used: 1 });
    // the used-up month was announced once (webhooks: quota.limit_reached), through the outbox
    const announced = await service.runtime.conn
      .collection('outbox')
      .find({ type: 'quota.limit-reached.v1', companyId: 'cmp_free' })
      .toArray();
    expect(announced.map((e) => e.data)).toEqual([{ month: '2026-11', limit: 3, used: 3, plan: 'free' }]);
  });

  it('counts a retried reservation once', async () => {
    expect(await reserve('cmp_retry', 'job-a@2026-11')).toMatchObject({ granted: true, used: 1 });
    expect(await reserve('cmp_retry', 'job-a@2026-11')).toMatchObject({ granted: true, used: 1 });
  });

  it('takes the plan from company events and releases failed finalizations once', async () => {
    await peer.publishEvent('company.created.v1', 'cmp_pro', { name: 'Pro GmbH', plan: 'pro' });
    await waitFor(async () => (await reserve('cmp_pro', 'probe@2026-11')).limit === 100, { what: 'pro plan' });
    const release = { invoiceId: 1, jobId: 'probe', reservationId: 'probe@2026-11', reason: 'render failed' };
    await peer.publishEvent('invoice.finalize-failed.v1', 'cmp_pro', release, { id: 'rel-1' });
    await peer.publishEvent('invoice.finalize-failed.v1', 'cmp_pro', release, { id: 'rel-2' });
    await waitFor(async () => (await usage('cmp_pro')).used === 0, { what: 'release' });
    expect(await reserve('cmp_pro', 'next@2026-11')).toMatchObject({ granted: true, used: 1, limit: 100 });
  });

  it('asks account-service for the plan of a company whose created event it never received', async () => {
    expect(await reserve('cmp_missed_event', 'first@2026-11')).toMatchObject({ granted: true, limit: 100, plan: 'pro' });
    expect(await usage('cmp_missed_event')).toMatchObject({ plan: 'pro', used: 1 });
  });

  it('never limits a company configured as unlimited, but still counts it', async () => {
    for (let i = 1; i <= 5; i++)
      expect(await reserve('cmp_bench', `b-${i}@2026-11`)).toMatchObject({ granted: true, used: i, limit: 2 ** 31 - 1 });
  });

  it('never grants more than the limit under concurrent reservations', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => reserve('cmp_race', `r-${i}@2026-11`)));
    expect(answers.filter((a) => a.granted)).toHaveLength(3);
  });

  it('grants a reservation whose month document another reservation created between its update and its read', async () => {
    const store = quotaStore(service.runtime.conn);
    const findById = store.usage.findById.bind(store.usage);
    let raced = false;
    // the first read after the missed update: a concurrent first reservation of the month has just created the document
    const spy = jest.spyOn(store.usage, 'findById').mockImplementation(((...args: Parameters<typeof findById>) => {
      if (raced) return findById(...args);
      raced = true;
      return {
        lean: async () => {
          await store.usage.updateOne(
            { _id: 'cmp_month_start:2026-11' },
            { $setOnInsert: { companyId: 'cmp_month_start', month: '2026-11', used: 1, reservations: ['other'] } },
            { upsert: true },
          );
          return findById(...args).lean();
        },
      };
    }) as never);
    try {
      expect(await store.reserve(asCompanyId('cmp_month_start'), '2026-11', 'mine', 100)).toEqual({ granted: true, used: 2 });
      expect(raced).toBe(true);
    } finally {
      spy.mockRestore();
    }
    // and through the service: the first ten reservations of a month, at once, all granted
    const march = '2027-03-15T10:00:00Z';
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => reserve('cmp_bench', `m-${i}@2027-03`, march)));
    expect(answers.map((a) => a.granted)).toEqual(Array(10).fill(true));
  });

  it('changes a plan, announces each change once with a growing version, and refuses unknown companies', async () => {
    const setPlan = (companyId: string, plan: 'free' | 'pro') => peer.callRpc('quota.set-plan.v1', companyId, { plan });
    await peer.publishEvent('company.created.v1', 'cmp_plan', { name: 'Plan GmbH', plan: 'pro' });
    await waitFor(async () => (await usage('cmp_plan')).limit === 100, { what: 'pro plan' });
    expect(await setPlan('cmp_plan', 'pro')).toEqual({ plan: 'pro', previousPlan: 'pro', changed: false, version: 0 });
    expect(await setPlan('cmp_plan', 'free')).toEqual({ plan: 'free', previousPlan: 'pro', changed: true, version: 1 });
    expect(await usage('cmp_plan')).toMatchObject({ plan: 'free', limit: 3 });
    expect(await setPlan('cmp_plan', 'free')).toMatchObject({ changed: false, version: 1 });
    expect(await setPlan('cmp_plan', 'pro')).toEqual({ plan: 'pro', previousPlan: 'free', changed: true, version: 2 });
    await waitFor(() => planChanges.length >= 2, { what: 'plan-changed events' });
    expect(planChanges).toEqual([
      { companyId: 'cmp_plan', plan: 'free', previousPlan: 'pro', version: 1 },
      { companyId: 'cmp_plan', plan: 'pro', previousPlan: 'free', version: 2 },
    ]);
    // a late company.created does not undo a change
    await peer.publishEvent('company.created.v1', 'cmp_plan', { name: 'Plan GmbH', plan: 'free' });
    await peer.publishEvent('company.created.v1', 'cmp_after', { name: 'After GmbH', plan: 'pro' });
    await waitFor(async () => (await usage('cmp_after')).limit === 100, { what: 'the event after the late one' });
    await expect(setPlan('cmp_nobody', 'pro')).rejects.toThrow(/company cmp_nobody/);
    expect(await usage('cmp_plan')).toMatchObject({ plan: 'pro', limit: 100 });
  });
});
