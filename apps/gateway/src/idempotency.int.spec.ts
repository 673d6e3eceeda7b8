import express from 'express';
import type { AddressInfo } from 'node:net';
import type { IncomingHttpHeaders, Server } from 'node:http';
import Redis from 'ioredis';
import { createHash } from 'node:crypto';
import { createIdentityVerifier, IDENTITY_HEADER } from '@inv/service-kit';
import { TEST_IDENTITY_KEY } from '@inv/testing';
import { gatewayConfig } from './config';
import { createGateway } from './gateway';

jest.setTimeout(30_000);

/**
 * Requests with an Idempotency-Key go through the same proxy as every other request: the same forwarding
 * headers, the same upstream timeout and the same error answers; only their answer is kept for a replay.
 */
describe('gateway: Idempotency-Key requests take the one forwarding path', () => {
  const key = 'ak_live_dddddddddddddddddddddddddddddddd';
  const redisPrefix = `t-gw-idem-${Date.now()}:`;
  const seen: { path: string; headers: IncomingHttpHeaders; body: unknown }[] = [];
  let failNext = 0;
  let upstream: Server;
  let gateway: Awaited<ReturnType<typeof createGateway>>;
  let base: string;

  beforeAll(async () => {
    const app = express();
    app.use(express.json());
    app.post('/internal/auth/verify', (req, res) => {
      if (req.body.key === key) res.json({ companyId: 'cmp_idem', keyId: 'key_idem', plan: 'pro' });
      else res.status(401).json({ message: 'missing, invalid or revoked API key' });
    });
    app.post('/customer/slow', (_req, _res) => undefined); // never answers
    app.post('/company/api-keys', (_req, res) => void res.status(201).json({ id: 'k1', key: `ak_live_${'f'.repeat(32)}` }));
    app.all('/{*rest}', (req, res) => {
      seen.push({ path: req.path, headers: req.headers, body: req.body });
      if (failNext > 0) {
        failNext--;
        res.status(500).json({ message: 'boom' });
        return;
      }
      res.status(201).json({ n: seen.length });
    });
    upstream = await new Promise<Server>((r) => {
      const s = app.listen(0, '127.0.0.1', () => r(s));
    });
    const up = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    // every service is the one fake upstream
    const services = Object.fromEntries(
      ['ACCOUNT_URL', 'CUSTOMER_URL', 'INVOICE_URL', 'DOCUMENT_URL', 'EXPORT_URL', 'QUOTA_URL'].map((name) => [name, up]),
    );
    const config = {
      PORT: '0',
      LOG_LEVEL: 'silent',
      IDENTITY_SIGNING_KEYS: TEST_IDENTITY_KEY,
      REDIS_PREFIX: redisPrefix,
      UPSTREAM_TIMEOUT_MS: '500',
      ...services,
    };
    gateway = await createGateway(gatewayConfig.parse(config));
    base = `${(await gateway.start()).url}/api/v1`;
  });

  afterAll(async () => {
    await gateway?.stop();
    upstream?.closeAllConnections();
    await new Promise((r) => upstream?.close(r));
    const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    const keys = await redis.keys(`${redisPrefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  const post = (path: string, body: unknown, idempotencyKey?: string) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json', ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
      body: JSON.stringify(body),
    });

  it('forwards with the same headers as a request without a key', async () => {
    await post('/customer/', { name: 'plain' });
    const plain = seen.at(-1)!;
    const first = await post('/customer/', { name: 'keyed' }, `same-${Date.now()}`);
    const keyed = seen.at(-1)!;
    expect(first.status).toBe(201);
    expect(keyed.body).toEqual({ name: 'keyed' });
    // what the proxy adds (forwarded-for/host/proto, request id, the signed identity) and nothing of the client's key
    for (const header of ['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-request-id', IDENTITY_HEADER]) {
      expect([header, typeof keyed.headers[header]]).toEqual([header, typeof plain.headers[header]]);
      expect(keyed.headers[header]).toBeDefined();
    }
    expect(keyed.headers['x-api-key']).toBeUndefined();
    expect(Number(keyed.headers['content-length'])).toBe(Buffer.byteLength(JSON.stringify({ name: 'keyed' })));
  });

  it('signs the key and the fingerprint of the request into the identity the service gets (its journal of what it committed)', async () => {
    const verifier = createIdentityVerifier([TEST_IDENTITY_KEY]);
    const idem = `journal-${Date.now()}`;
    await post('/customer/', { name: 'journaled' }, idem);
    const keyed = await verifier.verify(String(seen.at(-1)!.headers[IDENTITY_HEADER]));
    const fingerprint = createHash('sha256')
      .update('POST /api/v1/customer/\n')
      .update(JSON.stringify({ name: 'journaled' }))
      .digest('hex');
    expect(keyed).toMatchObject({ companyId: 'cmp_idem', idempotencyKey: idem, idempotencyFingerprint: fingerprint });
    await post('/customer/', { name: 'plain' });
    const plain = await verifier.verify(String(seen.at(-1)!.headers[IDENTITY_HEADER]));
    expect(plain.idempotencyKey).toBeUndefined();
    expect(plain.idempotencyFingerprint).toBeUndefined();
  });

  it("answers the proxy's 504 when the service does not answer within the upstream timeout, and releases the key", async () => {
    const idem = `slow-${Date.now()}`;
    const first = await post('/customer/slow', { n: 1 }, idem);
    expect(first.status).toBe(504);
    expect(((await first.json()) as { code: string }).code).toBe('UPSTREAM_TIMEOUT');
    // not kept: the retry runs again (and times out again) instead of a replay or a 409
    const again = await post('/customer/slow', { n: 1 }, idem);
    expect(again.status).toBe(504);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
  });

  it('keeps no 5xx answer: the retry with the same key runs again', async () => {
    const idem = `fail-${Date.now()}`;
    failNext = 1;
    const before = seen.length;
    expect((await post('/invoice/1/job', { task: 'x' }, idem)).status).toBe(500);
    const retry = await post('/invoice/1/job', { task: 'x' }, idem);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    const replay = await post('/invoice/1/job', { task: 'x' }, idem);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.json()).toEqual(await retry.json());
    expect(seen.length).toBe(before + 2);
  });

  it('answers 404 for a path no service owns, before reading the body', async () => {
    const res = await post('/no-such-prefix/', { n: 1 }, `none-${Date.now()}`);
    expect(res.status).toBe(404);
  });

  it('keeps no secret: a created API key is answered once and replayed masked, and never written to Redis', async () => {
    const idem = `key-${Date.now()}`;
    const first = (await (await post('/company/api-keys', { name: 'ci' }, idem)).json()) as { key: string };
    expect(first.key).toBe(`ak_live_${'f'.repeat(32)}`);
    const replay = await post('/company/api-keys', { name: 'ci' }, idem);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(((await replay.json()) as { key: string }).key).toBe(`ak_live_${'*'.repeat(32)}`);
    const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    const stored = await Promise.all(
      (await redis.keys(`${redisPrefix}*`)).map((k) => redis.type(k).then((t) => (t === 'string' ? redis.get(k) : ''))),
    );
    redis.disconnect();
    expect(stored.join('\n')).not.toContain('ak_live_ffff');
  });
});
