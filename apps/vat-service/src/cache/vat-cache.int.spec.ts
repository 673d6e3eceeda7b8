import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { createVatCache, type CachedVatCheck } from './vat-cache';

const REDIS_URL = 'redis://127.0.0.1:6379';

describe('VAT cache on Redis', () => {
  const prefix = `t-${randomBytes(6).toString('hex')}:`;
  let redis: Redis;

  beforeAll(() => {
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  const entry = (status: CachedVatCheck['status'], vatNumber = '143454214'): CachedVatCheck => ({
    status,
    countryCode: 'DE',
    vatNumber,
    checkedAt: '2026-03-04T05:06:07.000Z',
    requestDate: '2026-03-04',
    name: 'SAP SE',
    address: 'WALLDORF',
    consultationNumber: 'WAPIAAAA1',
    attempts: 1,
  });

  it('stores the verdict with its evidence under <prefix>vies:<cc><number>', async () => {
    const cache = createVatCache({ redis, prefix });
    await cache.set(entry('valid'));
    expect(cache.keyOf('DE', '143454214')).toBe(`${prefix}vies:DE143454214`);
    expect(JSON.parse((await redis.get(`${prefix}vies:DE143454214`))!)).toEqual(entry('valid'));
    expect(await cache.get('DE', '143454214')).toEqual(entry('valid'));
  });

  it('keeps valid and invalid for 24 h and unavailable only for 60 s', async () => {
    const cache = createVatCache({ redis, prefix });
    await cache.set(entry('valid', '1'));
    await cache.set(entry('invalid', '2'));
    await cache.set({ ...entry('unavailable', '3'), fault: 'MS_UNAVAILABLE' });
    expect(await redis.ttl(`${prefix}vies:DE1`)).toBeGreaterThan(86_390);
    expect(await redis.ttl(`${prefix}vies:DE2`)).toBeGreaterThan(86_390);
    const unavailableTtl = await redis.ttl(`${prefix}vies:DE3`);
    expect(unavailableTtl).toBeGreaterThan(50);
    expect(unavailableTtl).toBeLessThanOrEqual(60);
  });

  it('misses on unknown keys and on values it cannot read', async () => {
    const cache = createVatCache({ redis, prefix });
    expect(await cache.get('DE', '000000000')).toBeNull();
    await redis.set(`${prefix}vies:DE4`, 'not json', 'EX', 60);
    await redis.set(`${prefix}vies:DE5`, JSON.stringify({ status: 'maybe' }), 'EX', 60);
    expect(await cache.get('DE', '4')).toBeNull();
    expect(await cache.get('DE', '5')).toBeNull();
  });

  it('deletes', async () => {
    const cache = createVatCache({ redis, prefix });
    await cache.set(entry('valid', '6'));
    await cache.delete('DE', '6');
    expect(await cache.get('DE', '6')).toBeNull();
  });
});
