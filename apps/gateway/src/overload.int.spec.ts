import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Agent, request } from 'undici';
import { deleteRedisKeys, TEST_IDENTITY_KEY, uniquePrefix } from '@inv/testing';
import { gatewayConfig } from './config';
import { createGateway } from './gateway';

jest.setTimeout(60_000);

const KEY_A = 'ak_live_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const KEY_B = 'ak_live_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';

/** A fake upstream: job long polls hold for `wait` (at most 2 s here), /customer/slow for 300 ms. */
async function startUpstream() {
  const app = express();
  app.use(express.json());
  app.post('/internal/auth/verify', (req, res) => {
    if (req.body.key === KEY_A) res.json({ companyId: 'cmp_a', keyId: 'key_a', role: 'admin', plan: 'pro' });
    else if (req.body.key === KEY_B) res.json({ companyId: 'cmp_b', keyId: 'key_b', role: 'admin', plan: 'pro' });
    else res.status(401).json({ message: 'unknown key' });
  });
  app.get('/invoice/:id/job/:job', (req, res) => {
    const wait = Math.min(2, Number(req.query.wait ?? 0));
    setTimeout(() => res.json({ status: 'queued', waited: wait }), wait * 1000).unref();
  });
  app.all('/customer/slow', (_req, res) => void setTimeout(() => res.json({ ok: true }), 300).unref());
  app.all('/{*rest}', (_req, res) => void res.json({ ok: true }));
  const server = await new Promise<Server>((r) => {
    const s = app.listen(0, '127.0.0.1', () => r(s));
  });
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function startGateway(prefix: string, upstream: string, extra: Record<string, string> = {}) {
  const services = Object.fromEntries(
    ['ACCOUNT_URL', 'CUSTOMER_URL', 'INVOICE_URL', 'DOCUMENT_URL', 'EXPORT_URL', 'QUOTA_URL'].map((name) => [name, upstream]),
  );
  const gateway = await createGateway(
    gatewayConfig.parse({
      PORT: '0',
      LOG_LEVEL: 'silent',
      REDIS_PREFIX: `${prefix}:`,
      IDENTITY_SIGNING_KEYS: TEST_IDENTITY_KEY,
      RATE_LIMIT_PER_SECOND: '100000',
      ...services,
      ...extra,
    }),
  );
  return { gateway, base: `${(await gateway.start()).url}/api/v1` };
}

/** Many connections at once (fetch's default pool would queue them on the client side). */
const dispatcher = new Agent({ connections: 2_000, pipelining: 0 });
const get = async (url: string, key: string) => {
  const res = await request(url, { headers: { 'x-api-key': key }, dispatcher });
  return { status: res.statusCode, headers: res.headers, body: (await res.body.json()) as Record<string, unknown> };
};

describe('gateway under overload', () => {
  const prefix = uniquePrefix('t-overload');
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  const gateways: Awaited<ReturnType<typeof createGateway>>[] = [];

  beforeAll(async () => {
    upstream = await startUpstream();
  });
  afterAll(async () => {
    for (const g of gateways) await g.stop();
    upstream.server.closeAllConnections();
    await new Promise((r) => upstream.server.close(r));
    await dispatcher.close();
    await deleteRedisKeys(`${prefix}`);
  });

  it('survives more requests to one service than it has sockets (the ERR_HTTP_HEADERS_SENT crash)', async () => {
    // 300 long polls and 40 held-body (Idempotency-Key) POSTs to one service with 256 upstream sockets: before,
    // the ones Node's agent queued threw ERR_HTTP_HEADERS_SENT outside any request when they got a socket.
    const { gateway, base } = await startGateway(`${prefix}:crash`, upstream.url, { LONG_POLLS_PER_COMPANY: '1000' });
    gateways.push(gateway);
    const polls = Array.from({ length: 300 }, (_, i) => get(`${base}/invoice/${i}/job/1?wait=1`, KEY_A));
    const posts = Array.from({ length: 40 }, (_, i) =>
      request(`${base}/customer/slow`, {
        method: 'POST',
        headers: { 'x-api-key': KEY_A, 'content-type': 'application/json', 'idempotency-key': `k-${i}` },
        body: JSON.stringify({ i }),
        dispatcher,
      }).then(async (r) => (await r.body.text(), r.statusCode)),
    );
    const statuses = [...(await Promise.all(polls)).map((r) => r.status), ...(await Promise.all(posts))];
    const counts = statuses.reduce<Record<number, number>>((m, s) => ({ ...m, [s]: (m[s] ?? 0) + 1 }), {});
    // every one answered: 200, or a bounded refusal (429 over the company's concurrency, 503 when the queue is full)
    expect(Object.keys(counts).every((s) => ['200', '429', '503'].includes(s))).toBe(true);
    expect(counts[200]).toBeGreaterThanOrEqual(300);
    expect((await get(`${base}/customer/`, KEY_B)).status).toBe(200);
  });

  describe('with small limits', () => {
    let base: string;
    beforeAll(async () => {
      const started = await startGateway(`${prefix}:small`, upstream.url, {
        UPSTREAM_MAX_IN_FLIGHT: '4',
        UPSTREAM_MAX_QUEUE: '4',
        UPSTREAM_QUEUE_TIMEOUT_MS: '2000',
        CONCURRENT_REQUESTS_PER_COMPANY: '6',
        LONG_POLLS_PER_COMPANY: '3',
        LONG_POLLS_PER_SERVICE: '5',
      });
      gateways.push(started.gateway);
      base = started.base;
    });

    it("caps a company's requests in progress: 429 TOO_MANY_CONCURRENT_REQUESTS with Retry-After", async () => {
      const results = await Promise.all(Array.from({ length: 10 }, () => get(`${base}/customer/slow`, KEY_A)));
      const refused = results.filter((r) => r.status === 429);
      expect(results.filter((r) => r.status === 200)).toHaveLength(6);
      expect(refused).toHaveLength(4);
      expect(refused[0].body.code).toBe('TOO_MANY_CONCURRENT_REQUESTS');
      expect(refused[0].headers['retry-after']).toBe('1');
    });

    it('queues beyond the upstream slots and answers 503 SERVICE_BUSY when the queue is full', async () => {
      // two companies, six each: 4 forwarded, 4 queued, 4 refused
      const results = await Promise.all([
        ...Array.from({ length: 6 }, () => get(`${base}/customer/slow`, KEY_A)),
        ...Array.from({ length: 6 }, () => get(`${base}/customer/slow`, KEY_B)),
      ]);
      const busy = results.filter((r) => r.status === 503);
      expect(results.filter((r) => r.status === 200)).toHaveLength(8);
      expect(busy).toHaveLength(4);
      expect(busy[0].body.code).toBe('SERVICE_BUSY');
      expect(busy[0].headers['retry-after']).toBe('1');
      expect(busy[0].headers['content-type']).toContain('application/problem+json');
    });

    it("answers a company's long polls beyond its cap at once, and they never take the other company's slots", async () => {
      const startedAt = Date.now();
      const polls = Array.from({ length: 8 }, (_, i) => get(`${base}/invoice/${i}/job/1?wait=2`, KEY_A));
      await new Promise((r) => setTimeout(r, 100));
      // company B's ordinary requests go through while A's long polls are open
      const b = await Promise.all(Array.from({ length: 4 }, () => get(`${base}/customer/`, KEY_B)));
      expect(b.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      expect(Date.now() - startedAt).toBeLessThan(1500);
      const results = await Promise.all(polls);
      expect(results.every((r) => r.status === 200)).toBe(true);
      expect(results.filter((r) => r.body.waited === 2)).toHaveLength(3);
      expect(results.filter((r) => r.body.waited === 0)).toHaveLength(5);
    });

    it('frees the slot of a client that goes away while queued', async () => {
      const controllers = Array.from({ length: 8 }, () => new AbortController());
      const pending = controllers.map((c) =>
        request(`${base}/customer/slow`, { headers: { 'x-api-key': KEY_B }, dispatcher, signal: c.signal }).catch(() => undefined),
      );
      await new Promise((r) => setTimeout(r, 50));
      for (const c of controllers) c.abort();
      await Promise.all(pending);
      await new Promise((r) => setTimeout(r, 400));
      const after = await Promise.all(Array.from({ length: 4 }, () => get(`${base}/customer/slow`, KEY_A)));
      expect(after.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    });
  });

  it('cuts a body that trickles past BODY_TIMEOUT_MS with 408 BODY_TIMEOUT', async () => {
    const { gateway, base } = await startGateway(`${prefix}:body`, upstream.url, { BODY_TIMEOUT_MS: '500' });
    gateways.push(gateway);
    const { connect } = await import('node:net');
    const url = new URL(base);
    const socket = connect(Number(url.port), url.hostname);
    let received = '';
    socket.on('data', (d) => (received += d.toString()));
    socket.on('error', () => undefined);
    await new Promise((r) => socket.once('connect', r));
    socket.write(
      `POST /api/v1/customer/ HTTP/1.1\r\nHost: x\r\nX-API-Key: ${KEY_A}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`,
    );
    const trickle = setInterval(() => socket.writable && socket.write(' '), 100);
    const startedAt = Date.now();
    await new Promise((r) => socket.once('close', r));
    clearInterval(trickle);
    expect(Date.now() - startedAt).toBeLessThan(3000);
    expect(received).toMatch(/^HTTP\/1\.1 408/);
    expect(received).toContain('BODY_TIMEOUT');
  });
});
