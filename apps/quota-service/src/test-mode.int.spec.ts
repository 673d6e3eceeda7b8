import type { Bus } from '@inv/bus';
import { asCompanyId, testTwinOf, type Messages } from '@inv/contracts';
import { deleteBrokerObjects, peerBus, testEnv, testMongo, uniquePrefix } from '@inv/testing';
import { quotaConfig } from './config';
import { quotaStore } from './db/quota-store';
import { createQuotaService } from './quota-service';
import { usageOf } from './usecases/usage';

jest.setTimeout(60_000);

/** A test twin's finalizations never count and are never refused (docs/test-mode.md). */
describe('quota-service test mode', () => {
  const prefix = uniquePrefix();
  const live = asCompanyId('cmp_quota_tm');
  const twin = testTwinOf(live);
  const at = '2026-11-21T10:00:00Z';
  let mongo: Awaited<ReturnType<typeof testMongo>>;
  let service: Awaited<ReturnType<typeof createQuotaService>>;
  let peer: Bus<Messages>;

  beforeAll(async () => {
    mongo = await testMongo();
    service = await createQuotaService(quotaConfig.parse(testEnv(prefix, mongo.uri, {})));
    await service.start();
    peer = peerBus(prefix);
    peer.serveRpc('account.company-plan.v1', async (msg) =>
      msg.companyId === live ? { found: true, plan: 'free' as const } : { found: false },
    );
    await peer.start();
  });
  afterAll(async () => {
    await service?.stop();
    await peer?.stop();
    await deleteBrokerObjects(prefix);
    await mongo?.stop();
  });

  const reserve = (companyId: string, reservationId: string) => peer.callRpc('quota.reserve.v1', companyId, { reservationId, at });
  const usage = (companyId: string) =>
    usageOf(
      {
        store: quotaStore(service.runtime.conn),
        bus: service.runtime.bus,
        commit: service.runtime.commit,
        logger: service.runtime.logger,
        unlimited: new Set(),
      },
      asCompanyId(companyId),
      new Date(at),
    );

  it('grants every test finalization, counts none, and announces no used-up month', async () => {
    expect(await reserve(live, 'live-1@2026-11')).toMatchObject({ granted: true, used: 1, limit: 3, plan: 'free' });
    for (let i = 1; i <= 5; i++)
      expect(await reserve(twin, `test-${i}@2026-11`)).toMatchObject({ granted: true, used: 1, limit: 3, plan: 'free' });
    expect(await usage(live)).toMatchObject({ used: 1, limit: 3 });
    // the twin reads the live company's quota as it is
    expect(await usage(twin)).toMatchObject({ used: 1, limit: 3, plan: 'free' });
    const stored = await service.runtime.conn.collection('usage').countDocuments({ companyId: twin });
    expect(stored).toBe(0);
  });

  it('keeps granting test finalizations when the live month is used up', async () => {
    expect(await reserve(live, 'live-2@2026-11')).toMatchObject({ granted: true, used: 2 });
    expect(await reserve(live, 'live-3@2026-11')).toMatchObject({ granted: true, used: 3 });
    expect(await reserve(live, 'live-4@2026-11')).toMatchObject({ granted: false, used: 3 });
    expect(await reserve(twin, 'test-9@2026-11')).toMatchObject({ granted: true, used: 3, limit: 3 });
    const announced = await service.runtime.conn.collection('outbox').find({ type: 'quota.limit-reached.v1' }).toArray();
    expect(announced.map((e) => e.companyId)).toEqual([live]);
  });
});
