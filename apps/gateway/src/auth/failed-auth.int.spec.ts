import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { deleteRedisKeys, TEST_IDENTITY_KEY, uniquePrefix } from '@inv/testing';
import { gatewayConfig } from '../config';
import { createGateway } from '../gateway';

jest.setTimeout(30_000);

/** The failed-authentication limit counts failures only: a valid key's bursts never use it up, nor are held up by it. */
describe('failed-authentication limit', () => {
  const prefix = uniquePrefix('t-authfail');
  const valid = 'ak_live_0123456789abcdef0123456789abcdef';
  let upstream: Server;
  let gateway: Awaited<ReturnType<typeof createGateway>>;
  let base: string;
  let lookups = 0;

  beforeAll(async () => {
    const app = express();
    app.use(express.json());
    app.post('/internal/auth/verify', (req, res) => {
      lookups++;
      // a slow lookup, so that a burst arrives while it is under way
      setTimeout(() => {
        if (req.body.key === valid) res.json({ companyId: 'cmp_auth', keyId: 'key_auth', role: 'admin', plan: 'pro' });
        else res.status(401).json({ message: 'unknown key' });
      }, 50);
    });
    app.all('/{*rest}', (_req, res) => void res.json({ ok: true }));
    upstream = await new Promise<Server>((r) => {
      const s = app.listen(0, '127.0.0.1', () => r(s));
    });
    const up = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    gateway = await createGateway(
      gatewayConfig.parse({
        PORT: '0',
        LOG_LEVEL: 'silent',
        REDIS_PREFIX: `${prefix}:`,
        IDENTITY_SIGNING_KEYS: TEST_IDENTITY_KEY,
        RATE_LIMIT_PER_SECOND: '10000',
        AUTH_CACHE_TTL_MS: '2000',
        AUTH_NEGATIVE_CACHE_TTL_MS: '0',
        AUTH_FAILURES_BURST: '5',
        AUTH_FAILURES_PER_MINUTE: '1',
        ACCOUNT_URL: up,
        CUSTOMER_URL: up,
      }),
    );
    base = `${(await gateway.start()).url}/api/v1`;
  });
  afterAll(async () => {
    await gateway?.stop();
    upstream?.closeAllConnections();
    await new Promise((r) => upstream?.close(r));
    await deleteRedisKeys(`${prefix}:`);
  });

  const get = (key: string) => fetch(`${base}/customer/`, { headers: { 'x-api-key': key } }).then((r) => r.status);
  const count = (statuses: number[]) => statuses.reduce<Record<number, number>>((m, s) => ({ ...m, [s]: (m[s] ?? 0) + 1 }), {});

  it('answers a burst of 45 with a valid, uncached key 200 each, with one lookup', async () => {
    const before = lookups;
    expect(count(await Promise.all(Array.from({ length: 45 }, () => get(valid))))).toEqual({ 200: 45 });
    // one lookup for the burst (a second only if the machine was so slow that the burst outlived the 2 s cache)
    expect(lookups - before).toBeLessThanOrEqual(2);
    await new Promise((r) => setTimeout(r, 2100)); // past the key cache
    expect(count(await Promise.all(Array.from({ length: 45 }, () => get(valid))))).toEqual({ 200: 45 });
  });

  it('keeps serving a key verified before while its address is locked out by failures', async () => {
    const bad = await Promise.all(Array.from({ length: 10 }, (_, i) => get(`ak_live_${i.toString(16).padStart(32, 'f')}`)));
    expect(bad.filter((s) => s === 429).length).toBeGreaterThanOrEqual(5);
    expect(await get(`ak_live_${'e'.repeat(32)}`)).toBe(429); // the address is locked out for unknown keys ...
    await new Promise((r) => setTimeout(r, 2100)); // past the key cache
    expect(count(await Promise.all(Array.from({ length: 20 }, () => get(valid))))).toEqual({ 200: 20 }); // ... not for this key
  });
});
