import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import Redis from 'ioredis';
import type { RequestLogEntry, RequestLogPage } from '@inv/contracts';
import { createIdentityVerifier, IDENTITY_HEADER } from '@inv/service-kit';
import { deleteRedisKeys, TEST_IDENTITY_KEY, uniquePrefix, waitFor } from '@inv/testing';
import { gatewayConfig } from '../config';
import { createGateway } from '../gateway';

jest.setTimeout(60_000);

/** GET /request-log/ through a gateway between a fake account-service (key check) and a fake owning service. */
describe('request log', () => {
  const liveKey = 'ak_live_0123456789abcdef0123456789abcdef';
  const testKey = 'ak_test_0123456789abcdef0123456789abcdef';
  const viewerKey = 'ak_live_fedcba9876543210fedcba9876543210';
  const pagingKey = 'ak_live_11111111111111111111111111111111';
  const brokenKey = 'ak_live_22222222222222222222222222222222';
  const keys: Record<string, { companyId: string; keyId: string; mode: 'live' | 'test'; role?: string }> = {
    [liveKey]: { companyId: 'cmp_rl', keyId: 'key_live', mode: 'live' },
    [testKey]: { companyId: 'cmp_rl', keyId: 'key_test', mode: 'test' },
    [viewerKey]: { companyId: 'cmp_rl', keyId: 'key_viewer', mode: 'live', role: 'viewer' },
    [pagingKey]: { companyId: 'cmp_paging', keyId: 'key_paging', mode: 'live' },
    [brokenKey]: { companyId: 'cmp_broken', keyId: 'key_broken', mode: 'live' },
  };
  const prefix = `${uniquePrefix('t-gw-rl')}:`;
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const verifier = createIdentityVerifier([TEST_IDENTITY_KEY]);
  let upstream: Server;
  let gateway: Awaited<ReturnType<typeof createGateway>>;
  let base: string;

  beforeAll(async () => {
    const app = express();
    app.use(express.json());
    app.post('/internal/auth/verify', async (req, res) => {
      const caller = await verifier.verify(req.header(IDENTITY_HEADER)).catch(() => undefined);
      const known = keys[String(req.body.key)];
      if (caller?.scope !== 'internal' || !known) res.status(401).json({ message: 'missing, invalid or revoked API key' });
      else res.json({ ...known, role: known.role ?? 'admin', plan: 'pro' });
    });
    // a customer id that is a status answers it: /customer/404 is a 404, /customer/500 a 500
    app.get('/customer/:id', (req, res) => {
      const status = /^[2-5]\d\d$/.test(req.params.id) ? Number(req.params.id) : 200;
      res.status(status).json({ id: req.params.id });
    });
    app.all('/{*rest}', (req, res) => {
      res.status(req.method === 'POST' ? 201 : 200).json({ ok: true });
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
        REDIS_PREFIX: prefix,
        RATE_LIMIT_PER_SECOND: '10000',
        ...Object.fromEntries(
          ['ACCOUNT_URL', 'CUSTOMER_URL', 'INVOICE_URL', 'DOCUMENT_URL', 'EXPORT_URL', 'QUOTA_URL'].map((n) => [n, up]),
        ),
      }),
    );
    base = `${(await gateway.start()).url}/api/v1`;
  });
  afterAll(async () => {
    await gateway?.stop();
    upstream?.closeAllConnections();
    await new Promise((r) => upstream?.close(r));
    await deleteRedisKeys(prefix);
    redis.disconnect();
  });

  const call = (path: string, key: string, init: RequestInit = {}) =>
    fetch(`${base}${path}`, { ...init, headers: { 'x-api-key': key, ...(init.headers as Record<string, string>) } });
  const log = async (key: string, query = '') => {
    const res = await call(`/request-log/${query}`, key);
    expect(res.status).toBe(200);
    return (await res.json()) as RequestLogPage;
  };
  /** Recording follows the answer: wait until `key`'s log holds `n` entries. */
  const logged = (key: string, n: number) =>
    waitFor(
      async () => {
        const page = await log(key, '?limit=100');
        return page.entries.length >= n && page.entries;
      },
      { what: `${n} entries in the request log` },
    );
  /** Everything the gateway stored for the request logs of this run. */
  const stored = async () => {
    const found = await redis.keys(`${prefix}gw:reqlog:*`);
    const streams = await Promise.all(found.map((k) => redis.xrange(k, '-', '+')));
    return { keys: found, text: JSON.stringify(streams) };
  };

  let liveCount = 0;
  it('records method, path, status, duration, request id, Idempotency-Key and key id, newest first', async () => {
    const list = await call('/invoice/?page=1', liveKey);
    expect(list.status).toBe(200);
    await logged(liveKey, ++liveCount);
    const created = await call('/invoice/', liveKey, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'order-1017-create' },
      body: JSON.stringify({ note: 'body-marker-do-not-store', token: liveKey }),
    });
    expect(created.status).toBe(201);
    const entries = await logged(liveKey, ++liveCount);
    const [newest, older] = entries as [RequestLogEntry, RequestLogEntry];
    expect(newest).toEqual({
      id: expect.stringMatching(/^\d+-\d+$/),
      request_id: created.headers.get('x-request-id'),
      method: 'POST',
      path: '/invoice/',
      status: 201,
      duration_ms: expect.any(Number),
      idempotency_key: 'order-1017-create',
      key_id: 'key_live',
      mode: 'live',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(Number.isInteger(newest.duration_ms) && newest.duration_ms >= 0).toBe(true);
    expect(older).toMatchObject({
      method: 'GET',
      path: '/invoice/?page=1',
      status: 200,
      idempotency_key: null,
      request_id: list.headers.get('x-request-id'),
    });
    expect(Date.parse(newest.created_at)).toBeGreaterThanOrEqual(Date.parse(older.created_at));
  });

  it('keeps no key and no body: not in Redis, not in the answer; a key pasted into a path is masked', async () => {
    const pasted = await call(`/invoice/?api_key=${liveKey}`, liveKey);
    expect(pasted.status).toBe(400); // the query guard answers, after authentication: recorded
    const [entry] = await logged(liveKey, ++liveCount);
    expect(entry).toMatchObject({ status: 400, path: `/invoice/?api_key=ak_live_${'*'.repeat(32)}` });
    const answer = await (await call('/request-log/?limit=100', liveKey)).text();
    const { text } = await stored();
    for (const secret of [liveKey, testKey, viewerKey, 'body-marker-do-not-store', 'x-api-key']) {
      expect(answer).not.toContain(secret);
      expect(text).not.toContain(secret);
    }
  });

  it('records what the gateway refused after authentication (403), not what failed it (401), nor its own reads', async () => {
    const before = (await stored()).keys.length;
    expect((await call('/invoice/', 'ak_live_99999999999999999999999999999999')).status).toBe(401);
    expect((await call('/invoice/', 'not-a-key')).status).toBe(401);
    const refused = await call('/invoice/', viewerKey, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(refused.status).toBe(403);
    const [entry] = await logged(liveKey, ++liveCount);
    expect(entry).toMatchObject({ method: 'POST', status: 403, key_id: 'key_viewer', request_id: refused.headers.get('x-request-id') });
    expect((await stored()).keys.length).toBe(before);
    // the reads above were many: none of them is in the log
    expect((await log(liveKey, '?limit=100')).entries.filter((e) => e.path.startsWith('/request-log'))).toEqual([]);
  });

  it("keeps a test key's requests apart from a live key's, both ways", async () => {
    const res = await call('/customer/7', testKey);
    expect(res.status).toBe(200);
    const [entry] = await logged(testKey, 1);
    expect(entry).toMatchObject({ path: '/customer/7', mode: 'test', key_id: 'key_test', request_id: res.headers.get('x-request-id') });
    const test = await log(testKey, '?limit=100');
    expect(test.entries).toHaveLength(1);
    const live = await log(liveKey, '?limit=100');
    expect(live.entries).toHaveLength(liveCount);
    expect(live.entries.every((e) => e.mode === 'live')).toBe(true);
    expect(live.entries.map((e) => e.request_id)).not.toContain(entry!.request_id);
    // the twins are two company ids, so two logs
    expect((await stored()).keys.sort()).toEqual([`${prefix}gw:reqlog:cmp_rl`, `${prefix}gw:reqlog:test~cmp_rl`]);
  });

  it('pages newest first with a cursor, up to limit', async () => {
    const paths = ['/customer/201', '/customer/404', '/customer/500', '/customer/1', '/customer/409', '/customer/2', '/customer/3'];
    for (const [i, path] of paths.entries()) {
      await call(path, pagingKey);
      await logged(pagingKey, i + 1);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    const sizes: number[] = [];
    do {
      const page: RequestLogPage = await log(pagingKey, `?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      sizes.push(page.entries.length);
      seen.push(...page.entries.map((e) => e.path));
      cursor = page.next_cursor;
    } while (cursor);
    expect(sizes).toEqual([3, 3, 1]);
    expect(seen).toEqual([...paths].reverse());
    expect((await log(pagingKey)).entries).toHaveLength(7); // default 25
    expect((await log(pagingKey, '?limit=1')).next_cursor).not.toBeNull();
  });

  it('filters by status (exact or class) and method', async () => {
    const statuses = async (query: string) => (await log(pagingKey, query)).entries.map((e) => e.status);
    expect(await statuses('?status=4xx')).toEqual([409, 404]);
    expect(await statuses('?status=4XX')).toEqual([409, 404]);
    expect(await statuses('?status=5xx')).toEqual([500]);
    expect(await statuses('?status=404')).toEqual([404]);
    expect(await statuses('?status=2xx&limit=2')).toEqual([200, 200]);
    const filtered = await log(pagingKey, '?status=2xx&limit=2');
    const rest = await log(pagingKey, `?status=2xx&limit=2&cursor=${filtered.next_cursor}`);
    expect(rest.entries.map((e) => e.path)).toEqual(['/customer/1', '/customer/201']);
    expect(rest.next_cursor).toBeNull();
    expect(await statuses('?method=POST')).toEqual([]);
    expect((await log(liveKey, '?method=POST&limit=100')).entries.map((e) => e.status)).toEqual([403, 201]);
  });

  it.each([
    ['?limt=5', 'UNKNOWN_FIELD'],
    ['?limit=0', 'VALIDATION_ERROR'],
    ['?limit=101', 'VALIDATION_ERROR'],
    ['?limit=ten', 'VALIDATION_ERROR'],
    ['?status=abc', 'VALIDATION_ERROR'],
    ['?status=600', 'VALIDATION_ERROR'],
    ['?method=post', 'VALIDATION_ERROR'],
    ['?cursor=older', 'VALIDATION_ERROR'],
    ['?limit=1&limit=2', 'VALIDATION_ERROR'],
  ])('refuses %s (400 %s)', async (query, code) => {
    const res = await call(`/request-log/${query}`, liveKey);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(((await res.json()) as { code: string }).code).toBe(code);
  });

  it("answers the API when Redis refuses the log's writes, and a read of the log 503", async () => {
    // a key of another type where the log would be: every XADD and XREVRANGE on it fails (WRONGTYPE)
    await redis.set(`${prefix}gw:reqlog:cmp_broken`, 'not a stream');
    for (let i = 0; i < 3; i++) expect((await call('/invoice/', brokenKey)).status).toBe(200);
    const read = await call('/request-log/', brokenKey);
    expect(read.status).toBe(503);
    expect(((await read.json()) as { code: string }).code).toBe('SERVICE_UNAVAILABLE');
    // a failing write fails only its own entry (a pipeline is no transaction): the other logs are written as before
    await call('/customer/8', testKey);
    expect((await logged(testKey, 2))[0]).toMatchObject({ path: '/customer/8' });
    expect(await redis.get(`${prefix}gw:reqlog:cmp_broken`)).toBe('not a stream');
  });

  it('is read by every role, written by none (405), and suggested for a misspelling', async () => {
    expect((await call('/request-log/', viewerKey)).status).toBe(200);
    expect((await call('/request-log', liveKey)).status).toBe(200);
    const post = await call('/request-log/', liveKey, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    const typo = await call('/request-logs/', liveKey);
    expect(typo.status).toBe(404);
    expect(((await typo.json()) as { suggested_path?: string }).suggested_path).toBe('/api/v1/request-log/');
  });
});
