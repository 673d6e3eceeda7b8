import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import Redis from 'ioredis';
import { apiKeyRevokedChannel, createIdentityVerifier, IDENTITY_HEADER } from '@inv/service-kit';
import { TEST_IDENTITY_KEY, waitFor } from '@inv/testing';
import { gatewayConfig } from './config';
import { createGateway } from './gateway';

jest.setTimeout(30_000);

/** The gateway between a fake account-service (key check) and a fake owning service. */
describe('gateway', () => {
  const goodKey = 'ak_live_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
  const burstKey = 'ak_live_cccccccccccccccccccccccccccccccc'; // its own company, so the burst limits nobody else
  const revocableKey = 'ak_live_1212121212121212121212121212121f';
  const viewerKey = 'ak_live_7777777777777777777777777777777a';
  let revoked = false;
  const publisher = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  let upstream: Server;
  let gateway: Awaited<ReturnType<typeof createGateway>>;
  let base: string;
  let upstreamUrl: string;
  const redisPrefix = `t-gw-${Date.now()}:`;
  const seen: {
    path: string;
    company?: string;
    scope?: string;
    role?: string;
    apiKey?: string;
    forgedCompany?: string;
    traceparent?: string;
    body?: unknown;
  }[] = [];
  const verifier = createIdentityVerifier([TEST_IDENTITY_KEY]);
  let lookups = 0;

  beforeAll(async () => {
    const app = express();
    app.use(express.json());
    app.post('/internal/auth/verify', async (req, res) => {
      lookups++;
      const caller = await verifier.verify(req.header(IDENTITY_HEADER)).catch(() => undefined);
      if (caller?.scope !== 'internal') res.status(401).json({ message: 'no gateway identity' });
      else if (req.body.key === goodKey) res.json({ companyId: 'cmp_1', keyId: 'key_1', plan: 'pro' });
      else if (req.body.key === viewerKey) res.json({ companyId: 'cmp_1', keyId: 'key_viewer', role: 'viewer', plan: 'pro' });
      else if (req.body.key === burstKey) res.json({ companyId: 'cmp_burst', keyId: 'key_burst', plan: 'pro' });
      else if (req.body.key === revocableKey && !revoked) res.json({ companyId: 'cmp_rev', keyId: 'key_rev', plan: 'pro' });
      else res.status(401).json({ message: 'missing, invalid or revoked API key' });
    });
    // as account-service: revoke, announce to every gateway replica, then answer
    app.delete('/company/api-keys/key_rev', async (_req, res) => {
      revoked = true;
      await publisher.publish(apiKeyRevokedChannel(redisPrefix), JSON.stringify({ keyId: 'key_rev', companyId: 'cmp_rev' }));
      res.json({ message: 'API key revoked' });
    });
    app.all('/{*rest}', async (req, res) => {
      const identity = await verifier.verify(req.header(IDENTITY_HEADER)).catch(() => undefined);
      seen.push({
        path: req.path,
        company: identity?.companyId,
        scope: identity?.scope,
        role: identity?.role,
        apiKey: req.header('x-api-key'),
        forgedCompany: req.header('x-company-id'),
        traceparent: req.header('traceparent'),
        body: req.body,
      });
      res.status(req.method === 'POST' ? 201 : 200).json({ ok: true, path: req.path });
    });
    upstream = await new Promise<Server>((r) => {
      const s = app.listen(0, '127.0.0.1', () => r(s));
    });
    const up = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    gateway = await createGateway(
      gatewayConfig.parse({
        PORT: '0',
        LOG_LEVEL: 'silent',
        IDENTITY_SIGNING_KEYS: TEST_IDENTITY_KEY,
        TRUST_PROXY: 'loopback',
        REDIS_PREFIX: redisPrefix,
        // exact across a sliding second: the other tests send more than 20 requests of one company in a second
        RATE_LIMIT_PER_SECOND: '1000',
        ACCOUNT_URL: up,
        CUSTOMER_URL: up,
        INVOICE_URL: up,
        DOCUMENT_URL: up,
        EXPORT_URL: 'http://127.0.0.1:1',
        QUOTA_URL: up,
      }),
    );
    base = `${(await gateway.start()).url}/api/v1`;
  });
  afterAll(async () => {
    await gateway?.stop();
    publisher.disconnect();
    const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    const keys = await redis.keys(`${redisPrefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    await new Promise((r) => upstream.close(r));
  });

  const get = (path: string, key: string | null = goodKey, from?: string) =>
    fetch(`${base}${path}`, { headers: { ...(key === null ? {} : { 'x-api-key': key }), ...(from ? { 'x-forwarded-for': from } : {}) } });

  it('forwards a signed identity of the company, a trace context, and the body untouched; never the API key or a forged company header', async () => {
    const res = await fetch(`${base}/invoice/`, {
      method: 'POST',
      headers: { 'x-api-key': goodKey, 'content-type': 'application/json', 'x-company-id': 'cmp_evil', [IDENTITY_HEADER]: 'forged' },
      body: JSON.stringify({ customer_id: 1 }),
    });
    expect(res.status).toBe(201);
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ path: '/invoice/', company: 'cmp_1', scope: 'company', body: { customer_id: 1 } });
    expect(last.apiKey).toBeUndefined();
    expect(last.forgedCompany).toBeUndefined();
  });

  it('checks the role of the key on every route: a viewer reads, but writing answers 403 naming the permission', async () => {
    const read = await get('/invoice/', viewerKey);
    expect(read.status).toBe(200);
    expect(seen.at(-1)).toMatchObject({ path: '/invoice/', role: 'viewer' });
    const before = seen.length;
    const write = await fetch(`${base}/invoice/`, {
      method: 'POST',
      headers: { 'x-api-key': viewerKey, 'content-type': 'application/json' },
      body: '{"customer_id":1}',
    });
    expect(write.status).toBe(403);
    expect(await write.json()).toMatchObject({
      code: 'FORBIDDEN',
      missing_permission: 'invoices:write',
      role: 'viewer',
      message: expect.stringContaining('invoices:write'),
    });
    expect((await get('/company/api-keys', viewerKey)).status).toBe(403);
    expect(seen.length).toBe(before);
    // a key verified before roles existed acts as admin
    expect((await fetch(`${base}/company/api-keys`, { headers: { 'x-api-key': goodKey } })).status).toBe(200);
  });

  it('never routes /internal/* or dot-segment paths to a service', async () => {
    const before = seen.length;
    for (const path of ['/internal/auth/verify', '/company/../internal/auth/verify', '/company/%2e%2e/internal/auth/verify']) {
      expect((await get(path)).status).toBe(404);
    }
    expect(seen.length).toBe(before);
  });

  it('keeps connections alive to clients and to services (no connection: close on proxied answers)', async () => {
    const { request } = await import('node:http');
    const agent = new (await import('node:http')).Agent({ keepAlive: true, maxSockets: 1 });
    const get1 = () =>
      new Promise<{ connection?: string; socket: unknown }>((resolve, reject) => {
        const req = request(`${base}/customer/`, { agent, headers: { 'x-api-key': goodKey } }, (res) => {
          res.resume();
          res.on('end', () => resolve({ connection: res.headers.connection, socket: req.socket }));
        });
        req.on('error', reject);
        req.end();
      });
    const first = await get1();
    const second = await get1();
    agent.destroy();
    expect(first.connection).toBe('keep-alive');
    expect(second.socket).toBe(first.socket);
  });

  it('sets helmet security headers; the docs page may load same-origin scripts and styles', async () => {
    const api = await get('/customer/');
    expect(api.headers.get('x-content-type-options')).toBe('nosniff');
    expect(api.headers.get('content-security-policy')).toContain("default-src 'self'");
    const docs = await fetch(`${base}/docs`);
    const csp = docs.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'self'/);
    expect(csp).toMatch(/style-src 'self'/);
    expect(csp).toContain("frame-ancestors 'none'");
  });

  it('answers 401 problem+json before anything reaches a service', async () => {
    const before = seen.length;
    for (const key of [null, 'ak_live_short', `ak_live_${'b'.repeat(32)}`]) {
      const res = await get('/customer/', key);
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    }
    expect(seen.length).toBe(before);
  });

  it('routes tax treatments to document-service and unknown prefixes to 404', async () => {
    await get('/invoice/tax-treatments?locale=de');
    expect(seen.at(-1)!.path).toBe('/invoice/tax-treatments');
    expect((await get('/unknown/thing')).status).toBe(404);
  });

  it('answers 503 problem+json when the owning service is down', async () => {
    const res = await get('/downloads/');
    expect(res.status).toBe(503);
    expect(((await res.json()) as { code: string }).code).toBe('SERVICE_UNAVAILABLE');
  });

  it('replays a POST with the same Idempotency-Key and refuses the key for another body', async () => {
    const post = (key: string, body: unknown) =>
      fetch(`${base}/invoice/7/job`, {
        method: 'POST',
        headers: { 'x-api-key': goodKey, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify(body),
      });
    const key = `k-${Date.now()}`;
    const before = seen.length;
    const first = await post(key, { task: 'x' });
    expect(first.status).toBe(201);
    const second = await post(key, { task: 'x' });
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await second.json()).toEqual(await first.json());
    expect(seen.length).toBe(before + 1);
    expect(seen.at(-1)).toMatchObject({ path: '/invoice/7/job', company: 'cmp_1', body: { task: 'x' } });
    expect((await post(key, { task: 'y' })).status).toBe(422);
    expect((await post('bad key with spaces', { task: 'x' })).status).toBe(400);
  });

  it('serves the OpenAPI document without a key', async () => {
    const res = await fetch(`${base}/openapi.json`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { openapi: string }).openapi).toBe('3.1.0');
  });

  it('limits requests per company and second with 429 and Retry-After', async () => {
    // a gateway of its own with a limit of 20 (the shared one allows the other tests' pace)
    const limited20 = await createGateway(
      gatewayConfig.parse({
        PORT: '0',
        LOG_LEVEL: 'silent',
        IDENTITY_SIGNING_KEYS: TEST_IDENTITY_KEY,
        REDIS_PREFIX: `${redisPrefix}rl20:`,
        RATE_LIMIT_PER_SECOND: '20',
        ACCOUNT_URL: upstreamUrl,
        CUSTOMER_URL: upstreamUrl,
      }),
    );
    const base20 = `${(await limited20.start()).url}/api/v1`;
    const get20 = (key: string) => fetch(`${base20}/customer/`, { headers: { 'x-api-key': key } });
    try {
      // the key verified and cached first, so that no request of the burst waits for account-service
      expect((await get20(burstKey)).status).toBe(200);
      await new Promise((r) => setTimeout(r, 1100)); // an empty window
      const startedAt = Date.now();
      const answers = await Promise.all(Array.from({ length: 30 }, () => get20(burstKey)));
      const limited = answers.filter((a) => a.status === 429);
      // a sliding window, exact: 20 of 30 within one second (a burst a loaded machine spread over more admits more)
      if (Date.now() - startedAt < 1000) expect(limited.length).toBe(10);
      else expect(limited.length).toBeGreaterThanOrEqual(1);
      expect(Number(limited[0].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(limited[0].headers.get('ratelimit-policy')).toBe('"company";q=20;w=1');
      expect(answers.find((a) => a.status === 200)?.headers.get('ratelimit-limit')).toBe('20');
      expect((await get20(goodKey)).status).toBe(200); // other companies are not affected
    } finally {
      await limited20.stop();
    }
  });

  it('limits failed authentications per client address with 429 + Retry-After before any lookup; others are unaffected', async () => {
    const attacker = '203.0.113.7';
    const before = lookups;
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => get('/customer/', `ak_live_${i.toString(16).padStart(32, 'd')}`, attacker)),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(21);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(39);
    expect(lookups - before).toBeLessThanOrEqual(21);
    const limited = answers.find((a) => a.status === 429)!;
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(((await limited.json()) as { code: string }).code).toBe('TOO_MANY_FAILED_AUTHENTICATIONS');
    // the same address with a good (cached) key, and another address, still get through
    expect((await get('/customer/', goodKey, attacker)).status).toBe(200);
    expect((await get('/customer/', `ak_live_${'e'.repeat(32)}`, '198.51.100.1')).status).toBe(401);
  });

  it('answers a plural spelling of a path with a problem naming the path', async () => {
    const res = await get('/invoices/');
    expect(res.status).toBe(404);
    const body = (await res.json()) as { code: string; suggested_path: string; detail: string };
    expect(body).toMatchObject({ code: 'NOT_FOUND', suggested_path: '/api/v1/invoice/' });
    expect(body.detail).toContain('/api/v1/invoice/');
    expect(((await (await get('/customers/')).json()) as { suggested_path: string }).suggested_path).toBe('/api/v1/customer/');
  });

  it('caches verified keys and unknown keys (no account-service round trip on repeats)', async () => {
    await get('/customer/');
    const before = lookups;
    for (let i = 0; i < 5; i++) expect((await get('/customer/')).status).toBe(200);
    const unknown = `ak_live_${'9'.repeat(32)}`;
    for (let i = 0; i < 5; i++) expect((await get('/customer/', unknown, '198.51.100.2')).status).toBe(401);
    expect(lookups - before).toBe(1);
  });

  it('evicts a revoked key at once, on this replica and on every other one', async () => {
    const replica = await createGateway(
      gatewayConfig.parse({
        PORT: '0',
        LOG_LEVEL: 'silent',
        REDIS_PREFIX: redisPrefix,
        IDENTITY_SIGNING_KEYS: TEST_IDENTITY_KEY,
        ACCOUNT_URL: upstreamUrl,
        CUSTOMER_URL: upstreamUrl,
      }),
    );
    const other = `${(await replica.start()).url}/api/v1`;
    try {
      const on = (b: string) => fetch(`${b}/customer/`, { headers: { 'x-api-key': revocableKey } }).then((r) => r.status);
      expect([await on(base), await on(other)]).toEqual([200, 200]); // both have it cached now
      const before = lookups;
      expect([await on(base), await on(other)]).toEqual([200, 200]);
      expect(lookups).toBe(before);
      const revokedAt = Date.now();
      expect((await fetch(`${base}/company/api-keys/key_rev`, { method: 'DELETE', headers: { 'x-api-key': revocableKey } })).status).toBe(
        200,
      );
      expect(await on(base)).toBe(401);
      await waitFor(async () => (await on(other)) === 401, { timeoutMs: 1000, intervalMs: 5, what: 'revocation on the other replica' });
      process.stdout.write(`revocation effective on the other replica after ${Date.now() - revokedAt} ms\n`);
    } finally {
      await replica.stop();
    }
  });
});
