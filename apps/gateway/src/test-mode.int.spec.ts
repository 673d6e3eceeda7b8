import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import Redis from 'ioredis';
import { createIdentityVerifier, IDENTITY_HEADER } from '@inv/service-kit';
import { TEST_IDENTITY_KEY } from '@inv/testing';
import { gatewayConfig } from './config';
import { createGateway } from './gateway';

jest.setTimeout(30_000);

/** Test keys at the gateway (docs/test-mode.md): the identity names the company's test twin; a live key never does. */
describe('gateway test mode', () => {
  const liveKey = 'ak_live_5555555555555555555555555555555a';
  const testKey = 'ak_test_5555555555555555555555555555555a';
  let upstream: Server;
  let gateway: Awaited<ReturnType<typeof createGateway>>;
  let base: string;
  const redisPrefix = `t-gw-tm-${Date.now()}:`;
  const seen: { path: string; company?: string; mode?: string }[] = [];
  const verifier = createIdentityVerifier([TEST_IDENTITY_KEY]);

  beforeAll(async () => {
    const app = express();
    app.use(express.json());
    app.post('/internal/auth/verify', async (req, res) => {
      const caller = await verifier.verify(req.header(IDENTITY_HEADER)).catch(() => undefined);
      if (caller?.scope !== 'internal') res.status(401).json({ message: 'no gateway identity' });
      else if (req.body.key === liveKey) res.json({ companyId: 'cmp_tm', keyId: 'key_live', plan: 'pro', mode: 'live' });
      else if (req.body.key === testKey) res.json({ companyId: 'cmp_tm', keyId: 'key_test', plan: 'pro', mode: 'test' });
      else res.status(401).json({ message: 'missing, invalid or revoked API key' });
    });
    app.all('/{*rest}', async (req, res) => {
      const identity = await verifier.verify(req.header(IDENTITY_HEADER)).catch(() => undefined);
      seen.push({ path: req.path, company: identity?.companyId, mode: identity?.mode });
      res.json({ ok: true });
    });
    upstream = await new Promise<Server>((r) => {
      const s = app.listen(0, '127.0.0.1', () => r(s));
    });
    const up = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    gateway = await createGateway(
      gatewayConfig.parse({
        PORT: '0',
        LOG_LEVEL: 'silent',
        IDENTITY_SIGNING_KEYS: TEST_IDENTITY_KEY,
        TRUST_PROXY: 'loopback',
        REDIS_PREFIX: redisPrefix,
        ACCOUNT_URL: up,
        CUSTOMER_URL: up,
        INVOICE_URL: up,
        DOCUMENT_URL: up,
        EXPORT_URL: up,
        QUOTA_URL: up,
      }),
    );
    base = `${(await gateway.start()).url}/api/v1`;
  });
  afterAll(async () => {
    await gateway?.stop();
    const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    const keys = await redis.keys(`${redisPrefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    await new Promise((r) => upstream.close(r));
  });

  const get = (path: string, key: string) => fetch(`${base}${path}`, { headers: { 'x-api-key': key } });

  it("signs a test key's requests for the company's test twin, with mode test", async () => {
    expect((await get('/invoice/', testKey)).status).toBe(200);
    expect(seen.at(-1)).toEqual({ path: '/invoice/', company: 'test~cmp_tm', mode: 'test' });
  });

  it("signs a live key's requests for the live company", async () => {
    expect((await get('/invoice/', liveKey)).status).toBe(200);
    expect(seen.at(-1)).toEqual({ path: '/invoice/', company: 'cmp_tm', mode: undefined });
  });

  it('refuses a malformed test key like any malformed key', async () => {
    const res = await get('/invoice/', 'ak_test_XYZ');
    expect(res.status).toBe(401);
  });
});
