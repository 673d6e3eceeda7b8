import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { AppError, createHttpApp, createIdentityVerifier, createLogger, finalizeApp, identityOf } from '@inv/service-kit';
import { deleteRedisKeys, TEST_IDENTITY_KEY, uniquePrefix } from '@inv/testing';
import { gatewayConfig } from './config';
import { createGateway } from './gateway';

jest.setTimeout(30_000);

/**
 * Every request path of the system's HTTP edge with API keys in every place a client might put one
 * (the header, the query string, Authorization, a cookie, the body), through the real gateway and a
 * service built on the real service-kit stack (identity check, pino-http, error handler), both logging at
 * debug into memory: success, 4xx, 5xx, proxy errors (service down, upstream timeout), auth failures.
 * No captured line may contain key material.
 */
describe('no API key material in any log line', () => {
  const KEY_MATERIAL = /ak_live_[0-9a-f]/;
  const goodKey = 'ak_live_0123456789abcdef0123456789abcdef';
  const unknownKey = 'ak_live_fedcba9876543210fedcba9876543210';
  const prefix = uniquePrefix('t-logs');
  const lines: string[] = [];
  const capture = { write: (s: string) => void lines.push(s) };
  let upstream: Server;
  let gateway: Awaited<ReturnType<typeof createGateway>>;
  let base: string;

  beforeAll(async () => {
    const logger = createLogger('fake-service', 'debug', capture);
    const app = createHttpApp({ service: 'fake-service', logger, identity: createIdentityVerifier([TEST_IDENTITY_KEY]) });
    app.post('/internal/auth/verify', (req, res) => {
      if (req.body.key === goodKey) res.json({ companyId: 'cmp_logs', keyId: 'key_logs', plan: 'pro' });
      else res.status(401).json({ message: 'missing, invalid or revoked API key' });
    });
    app.get('/customer/ok', (req, res) => void res.json({ company: identityOf(req)?.companyId }));
    app.post('/customer/', (req, res) => void res.status(201).json({ id: 1 }));
    app.get('/customer/bad', () => {
      throw new AppError('invalid_data', 'bad input', { code: 'VALIDATION_ERROR' });
    });
    app.get('/customer/boom', () => {
      throw new Error(`unexpected failure while handling ${goodKey}`);
    });
    app.get('/customer/slow', () => undefined); // never answers: the gateway's upstream timeout
    finalizeApp(app, logger);
    upstream = await new Promise<Server>((r) => {
      const s = app.listen(0, '127.0.0.1', () => r(s));
    });
    const up = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    gateway = await createGateway(
      gatewayConfig.parse({
        PORT: '0',
        LOG_LEVEL: 'debug',
        REDIS_PREFIX: `${prefix}:`,
        IDENTITY_SIGNING_KEYS: TEST_IDENTITY_KEY,
        UPSTREAM_TIMEOUT_MS: '500',
        ACCOUNT_URL: up,
        CUSTOMER_URL: up,
        INVOICE_URL: 'http://127.0.0.1:1',
        DOCUMENT_URL: up,
        EXPORT_URL: up,
        QUOTA_URL: up,
      }),
      { logDestination: capture },
    );
    base = `${(await gateway.start()).url}/api/v1`;
  });
  afterAll(async () => {
    await gateway?.stop();
    await new Promise((r) => upstream?.close(r));
    await deleteRedisKeys(`${prefix}:`);
  });

  it('holds for success, 4xx, 5xx and proxy-error paths', async () => {
    const statuses: number[] = [];
    const send = async (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) => {
      const res = await fetch(`${base}${path}`, { ...init, headers: { 'x-api-key': goodKey, ...init.headers } });
      await res.arrayBuffer();
      statuses.push(res.status);
    };
    await send('/customer/ok');
    // query parameters the operation does not take: 400 naming them (never their values)
    await send(`/customer/ok?api_key=${goodKey}&token=${unknownKey}`);
    await send('/customer/ok', { headers: { authorization: `Bearer ${goodKey}`, cookie: `key=${goodKey}` } });
    await send('/customer/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ note: goodKey }) });
    await send('/customer/', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'logs-1' },
      body: JSON.stringify({ note: goodKey }),
    });
    await send('/customer/bad');
    await send('/customer/nowhere');
    await send('/customer/boom');
    await send('/customer/slow');
    await send('/invoice/'); // service down
    await send('/no-such-prefix/');
    await send('/customer/ok', { headers: { 'x-api-key': unknownKey } });
    await send('/customer/ok', { headers: { 'x-api-key': `${goodKey}00` } });
    await send('/customer/ok', { headers: { 'x-api-key': '' } });
    expect(statuses).toEqual([200, 400, 200, 201, 201, 400, 404, 500, 504, 503, 404, 401, 401, 401]);

    await new Promise((r) => setTimeout(r, 100)); // pino-http logs on 'finish'/'close'
    const matches = lines.filter((l) => KEY_MATERIAL.test(l));
    // a figure for the issue note
    process.stdout.write(`log lines scanned: ${lines.length}, lines with key material: ${matches.length}\n`);
    expect(lines.length).toBeGreaterThan(20);
    expect(lines.some((l) => l.includes('"statusCode":500'))).toBe(true);
    expect(lines.some((l) => l.includes('unhandled error'))).toBe(true);
    expect(matches).toEqual([]);
  });
});
