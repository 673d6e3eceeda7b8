import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import Redis from 'ioredis';
import { gatewayConfig } from './config';
import { createGateway } from './gateway';

jest.setTimeout(30_000);

/** The gateway between a fake account-service (key check) and a fake owning service. */
describe('gateway', () => {
  const goodKey = 'ak_live_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
  const burstKey = 'ak_live_cccccccccccccccccccccccccccccccc'; // its own company, so the burst limits nobody else
  let upstream: Server;
  let gateway: Awaited<ReturnType<typeof createGateway>>;
  let base: string;
  const redisPrefix = `t-gw-${Date.now()}:`;
  const seen: { path: string; company?: string; traceparent?: string; body?: unknown }[] = [];

  beforeAll(async () => {
    const app = express();
    app.use(express.json());
    app.post('/internal/auth/verify', (req, res) => {
      if (req.body.key === goodKey) res.json({ companyId: 'cmp_1' });
      else if (req.body.key === burstKey) res.json({ companyId: 'cmp_burst' });
      else res.status(401).json({ message: 'missing, invalid or revoked API key' });
    });
    app.all('/{*rest}', (req, res) => {
      seen.push({ path: req.path, company: req.header('x-company-id'), traceparent: req.header('traceparent'), body: req.body });
      res.status(req.method === 'POST' ? 201 : 200).json({ ok: true, path: req.path });
    });
    upstream = await new Promise<Server>((r) => {
      const s = app.listen(0, '127.0.0.1', () => r(s));
    });
    const up = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    gateway = await createGateway(
      gatewayConfig.parse({
        PORT: '0',
        LOG_LEVEL: 'silent',
        REDIS_PREFIX: redisPrefix,
        RATE_LIMIT_PER_SECOND: '20',
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
    const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    const keys = await redis.keys(`${redisPrefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    await new Promise((r) => upstream.close(r));
  });

  const get = (path: string, key: string | null = goodKey) => fetch(`${base}${path}`, { headers: key === null ? {} : { 'x-api-key': key } });

  it('forwards with the company id, a trace context, and the body untouched; ignores a forged company header', async () => {
    const res = await fetch(`${base}/invoice/`, { method: 'POST', headers: { 'x-api-key': goodKey, 'content-type': 'application/json', 'x-company-id': 'cmp_evil' }, body: JSON.stringify({ customer_id: 1 }) });
    expect(res.status).toBe(201);
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ path: '/invoice/', company: 'cmp_1', body: { customer_id: 1 } });
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
      fetch(`${base}/invoice/7/job`, { method: 'POST', headers: { 'x-api-key': goodKey, 'content-type': 'application/json', 'idempotency-key': key }, body: JSON.stringify(body) });
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
    // wait for the start of a fresh second so the burst lands in one window
    await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 20));
    const answers = await Promise.all(Array.from({ length: 30 }, () => get('/customer/', burstKey)));
    const limited = answers.filter((a) => a.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(10);
    expect(limited[0].headers.get('retry-after')).toBe('1');
    expect(answers.find((a) => a.status === 200)?.headers.get('ratelimit-limit')).toBe('20');
    expect((await get('/customer/')).status).toBe(200); // other companies are not affected
  });
});
