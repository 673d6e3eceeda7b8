import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { SIMULATOR_SCENARIO_VAT_IDS, startViesSimulator, type ViesSimulator } from '@inv/vies-simulator';
import { createVatCache, type VatCache } from '../cache/vat-cache';
import type { RetryPolicy } from '../domain/vat-check-decision';
import { checkVatId, type CheckVatIdDeps } from './check-vat-id';
import { createViesClient } from './vies-client';

/**
 * The use case end to end: SOAP client -> simulator over HTTP, verdicts in a real Redis under a
 * per-run key prefix. Delays are short: client timeout 200 ms, backoff 10/20 ms.
 */
describe('checkVatId with the VIES simulator and Redis', () => {
  const prefix = `t-${randomBytes(6).toString('hex')}:`;
  const policy: RetryPolicy = { maxAttempts: 3, backoffMs: [10, 20], jitterRatio: 0 };
  let redis: Redis;
  let sim: ViesSimulator;
  let cache: VatCache;
  let deps: CheckVatIdDeps;
  const sleeps: number[] = [];

  beforeAll(async () => {
    redis = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
    sim = await startViesSimulator({ slowMs: 1_000 });
    cache = createVatCache({ redis, prefix });
    deps = {
      client: createViesClient({ url: sim.url, timeoutMs: 200 }),
      cache,
      sleep: (ms) => {
        sleeps.push(ms);
        return new Promise((resolve) => setTimeout(resolve, ms));
      },
      now: () => new Date(),
      retryPolicy: policy,
    };
  });
  beforeEach(() => {
    sleeps.length = 0;
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
    await sim.stop();
  });

  /** Simulator requests made while running `fn`. */
  async function countingRequests<T>(fn: () => Promise<T>): Promise<[T, number]> {
    const before = sim.requestCount();
    const result = await fn();
    return [result, sim.requestCount() - before];
  }

  it('reports valid with the evidence VIES gave, and caches it', async () => {
    const [outcome, requests] = await countingRequests(() => checkVatId({ vatId: 'DE 143.454.214' }, deps));
    expect(outcome).toMatchObject({
      status: 'valid',
      vatId: 'DE143454214',
      countryCode: 'DE',
      requestDate: new Date().toISOString().slice(0, 10),
      name: expect.stringMatching(/SIMULATED TRADER/),
      address: expect.any(String),
      attempts: 1,
      cached: false,
    });
    expect(requests).toBe(1);
    expect(JSON.parse((await redis.get(`${prefix}vies:DE143454214`))!)).toMatchObject({ status: 'valid', name: outcome.name });
  });

  it('answers a repeated question from the cache', async () => {
    await checkVatId({ vatId: 'ATU13585627' }, deps);
    const [outcome, requests] = await countingRequests(() => checkVatId({ vatId: 'atu13585627' }, deps));
    expect(outcome).toMatchObject({ status: 'valid', cached: true, attempts: 0, name: expect.any(String) });
    expect(requests).toBe(0);
  });

  it('reports invalid when VIES says the number is not registered', async () => {
    const [outcome, requests] = await countingRequests(() => checkVatId({ vatId: SIMULATOR_SCENARIO_VAT_IDS.invalid }, deps));
    expect(outcome).toMatchObject({ status: 'invalid', attempts: 1, cached: false });
    expect(outcome.name).toBeUndefined();
    expect(requests).toBe(1);
    expect(await cache.get('DE', SIMULATOR_SCENARIO_VAT_IDS.invalid.slice(2))).toMatchObject({ status: 'invalid' });
  });

  it('does not ask VIES about a syntax-invalid ID', async () => {
    const [outcome, requests] = await countingRequests(() => checkVatId({ vatId: 'FR40303265046' }, deps));
    expect(outcome).toMatchObject({ status: 'invalid', reason: expect.stringMatching(/check digit/), attempts: 0 });
    expect(requests).toBe(0);
  });

  it.each([
    'SERVICE_UNAVAILABLE',
    'MS_UNAVAILABLE',
    'TIMEOUT',
    'GLOBAL_MAX_CONCURRENT_REQ',
    'GLOBAL_MAX_CONCURRENT_REQ_TIME',
    'MS_MAX_CONCURRENT_REQ',
    'MS_MAX_CONCURRENT_REQ_TIME',
  ] as const)('retries %s with backoff and ends unavailable, never invalid', async (fault) => {
    const vatId = SIMULATOR_SCENARIO_VAT_IDS[fault];
    const [outcome, requests] = await countingRequests(() => checkVatId({ vatId }, deps));
    expect(outcome).toMatchObject({ status: 'unavailable', fault, attempts: 3, cached: false });
    expect(requests).toBe(3);
    expect(sleeps).toEqual([10, 20]);
    const ttl = await redis.ttl(cache.keyOf('DE', vatId.slice(2)));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60);
  });

  it.each(['VAT_BLOCKED', 'IP_BLOCKED'] as const)('reports %s as unavailable without retrying', async (fault) => {
    const [outcome, requests] = await countingRequests(() => checkVatId({ vatId: SIMULATOR_SCENARIO_VAT_IDS[fault] }, deps));
    expect(outcome).toMatchObject({ status: 'unavailable', fault, attempts: 1 });
    expect(requests).toBe(1);
  });

  it('reports a member state that is down as unavailable, and valid once it is back', async () => {
    sim.setMemberStateDown('IT', true);
    const [down, downRequests] = await countingRequests(() => checkVatId({ vatId: 'IT00743110157' }, deps));
    expect(down).toMatchObject({ status: 'unavailable', fault: 'MS_UNAVAILABLE', attempts: 3 });
    expect(downRequests).toBe(3);

    // While the short-lived `unavailable` entry lives, it is what a plain check gets.
    expect(await checkVatId({ vatId: 'IT00743110157' }, deps)).toMatchObject({ status: 'unavailable', cached: true });

    sim.setMemberStateDown('IT', false);
    const back = await checkVatId({ vatId: 'IT00743110157', forceRefresh: true }, deps);
    expect(back).toMatchObject({ status: 'valid', attempts: 1, cached: false });
    expect(await checkVatId({ vatId: 'IT00743110157' }, deps)).toMatchObject({ status: 'valid', cached: true });
  });

  it('asks VIES again once the unavailable entry has expired', async () => {
    const quickCache = createVatCache({ redis, prefix: `${prefix}quick:`, unavailableTtlSeconds: 1 });
    const quickDeps = { ...deps, cache: quickCache };
    sim.setMemberStateDown('ES', true);
    expect(await checkVatId({ vatId: 'ESA28015865' }, quickDeps)).toMatchObject({ status: 'unavailable' });
    sim.setMemberStateDown('ES', false);
    // Wait on the observable fact (the key expired), not on a fixed sleep.
    const key = quickCache.keyOf('ES', 'A28015865');
    for (let i = 0; i < 40 && (await redis.exists(key)) === 1; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await checkVatId({ vatId: 'ESA28015865' }, quickDeps)).toMatchObject({ status: 'valid', cached: false });
  });

  it('treats answers slower than the client timeout as unavailable after the retries', async () => {
    const started = Date.now();
    const outcome = await checkVatId({ vatId: SIMULATOR_SCENARIO_VAT_IDS.slow }, deps);
    expect(outcome).toMatchObject({ status: 'unavailable', fault: 'CLIENT_TIMEOUT', attempts: 3 });
    // 3 x 200 ms client timeout + 30 ms backoff, well under the simulator's 1 s answer.
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('takes INVALID_INPUT from VIES as invalid without retrying', async () => {
    const [outcome, requests] = await countingRequests(() => checkVatId({ vatId: SIMULATOR_SCENARIO_VAT_IDS.INVALID_INPUT }, deps));
    expect(outcome).toMatchObject({ status: 'invalid', fault: 'INVALID_INPUT', attempts: 1 });
    expect(requests).toBe(1);
  });

  it('keeps the consultation number when the requester is given', async () => {
    const outcome = await checkVatId({ vatId: 'NL004495445B01', requester: { countryCode: 'DE', vatNumber: '143454214' } }, deps);
    expect(outcome).toMatchObject({ status: 'valid', consultationNumber: expect.stringMatching(/^WAPI/) });
    expect(await cache.get('NL', '004495445B01')).toMatchObject({ consultationNumber: outcome.consultationNumber });
  });
});
