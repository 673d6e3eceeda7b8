import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import Redis from 'ioredis';
import { createIdentityVerifier, IDENTITY_HEADER } from '@inv/service-kit';
import { TEST_IDENTITY_KEY } from '@inv/testing';
import { gatewayConfig } from './config';
import { createGateway } from './gateway';

jest.setTimeout(30_000);

/**
 * The dashboard's credentials at the gateway: a member's access token (`Authorization: Bearer mt_…`) works like an API
 * key with the member's role; /auth/* reaches account-service without a key (as the gateway's own identity, with
 * nothing the client sent); /app/ is passed to the dashboard with the browser's Host.
 */
describe('gateway: member access tokens, /auth and /app', () => {
  const token = `mt_${'1a'.repeat(32)}`;
  const testToken = `mt_${'2b'.repeat(32)}`;
  const expiring = `mt_${'3c'.repeat(32)}`;
  let upstream: Server;
  let web: Server;
  let gateway: Awaited<ReturnType<typeof createGateway>>;
  let origin: string;
  const redisPrefix = `t-gw-ma-${Date.now()}:`;
  const seen: { path: string; scope?: string; company?: string; member?: string; role?: string; auth?: string; apiKey?: string }[] = [];
  const webSeen: { url: string; host?: string; forwardedFor?: string; identity?: string }[] = [];
  let lookups = 0;
  const verifier = createIdentityVerifier([TEST_IDENTITY_KEY]);

  beforeAll(async () => {
    const app = express();
    app.use(express.json());
    app.post('/internal/auth/verify', async (req, res) => {
      lookups++;
      const caller = await verifier.verify(req.header(IDENTITY_HEADER)).catch(() => undefined);
      const soon = new Date(Date.now() + 300).toISOString();
      const later = new Date(Date.now() + 300_000).toISOString();
      if (caller?.scope !== 'internal') res.status(401).json({ message: 'no gateway identity' });
      else if (req.body.key === token)
        res.json({ companyId: 'cmp_ma', keyId: 'mses_1', memberId: 'mem_1', role: 'viewer', plan: 'free', mode: 'live', expiresAt: later });
      else if (req.body.key === testToken)
        res.json({ companyId: 'cmp_ma', keyId: 'mses_2', memberId: 'mem_1', role: 'owner', plan: 'free', mode: 'test', expiresAt: later });
      else if (req.body.key === expiring)
        res.json({ companyId: 'cmp_ma', keyId: 'mses_3', memberId: 'mem_1', role: 'owner', plan: 'free', mode: 'live', expiresAt: soon });
      else res.status(401).json({ message: 'missing, invalid or revoked API key' });
    });
    app.all('/{*rest}', async (req, res) => {
      const identity = await verifier.verify(req.header(IDENTITY_HEADER)).catch(() => undefined);
      seen.push({
        path: req.path,
        scope: identity?.scope,
        company: identity?.companyId,
        member: identity?.memberId,
        role: identity?.role,
        auth: req.header('authorization'),
        apiKey: req.header('x-api-key'),
      });
      res.status(req.path === '/auth/sessions' ? 201 : 200).json({ ok: true });
    });
    upstream = await new Promise<Server>((r) => {
      const s = app.listen(0, '127.0.0.1', () => r(s));
    });
    const dashboard = express();
    dashboard.all('/{*rest}', (req, res) => {
      webSeen.push({
        url: req.originalUrl,
        host: req.header('host'),
        forwardedFor: req.header('x-forwarded-for'),
        identity: req.header(IDENTITY_HEADER),
      });
      res.type('html').send('<!doctype html><title>dashboard</title>');
    });
    web = await new Promise<Server>((r) => {
      const s = dashboard.listen(0, '127.0.0.1', () => r(s));
    });
    const up = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    gateway = await createGateway(
      gatewayConfig.parse({
        PORT: '0',
        LOG_LEVEL: 'silent',
        IDENTITY_SIGNING_KEYS: TEST_IDENTITY_KEY,
        REDIS_PREFIX: redisPrefix,
        ACCOUNT_URL: up,
        CUSTOMER_URL: up,
        INVOICE_URL: up,
        DOCUMENT_URL: up,
        EXPORT_URL: up,
        QUOTA_URL: up,
        WEB_URL: `http://127.0.0.1:${(web.address() as AddressInfo).port}`,
      }),
    );
    origin = (await gateway.start()).url;
  });
  afterAll(async () => {
    await gateway?.stop();
    const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    const keys = await redis.keys(`${redisPrefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    await new Promise((r) => upstream.close(r));
    await new Promise((r) => web.close(r));
  });

  const bearer = (path: string, t: string, method = 'GET') =>
    fetch(`${origin}/api/v1${path}`, { method, headers: { authorization: `Bearer ${t}` } });

  it('signs a member token for the member, with the role account-service names; the token goes no further', async () => {
    expect((await bearer('/invoice/', token)).status).toBe(200);
    expect(seen.at(-1)).toEqual({
      path: '/invoice/',
      scope: 'company',
      company: 'cmp_ma',
      member: 'mem_1',
      role: 'viewer',
      auth: undefined,
      apiKey: undefined,
    });
  });

  it("enforces the member's role at the edge: a viewer's write is 403", async () => {
    const res = await bearer('/invoice/', token, 'POST');
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe('FORBIDDEN');
  });

  it("a test-mode token works on the company's test twin", async () => {
    expect((await bearer('/customer/', testToken)).status).toBe(200);
    expect(seen.at(-1)).toMatchObject({ company: 'test~cmp_ma', role: 'owner' });
  });

  it('caches a token no longer than it holds', async () => {
    expect((await bearer('/invoice/', expiring)).status).toBe(200);
    const before = lookups;
    await new Promise((r) => setTimeout(r, 400));
    // expired in the cache: account-service is asked again (and here says it is still fine)
    expect((await bearer('/invoice/', expiring)).status).toBe(200);
    expect(lookups).toBe(before + 1);
  });

  it('refuses an unknown token, a malformed one and a token in another scheme with 401', async () => {
    expect((await bearer('/invoice/', `mt_${'ff'.repeat(32)}`)).status).toBe(401);
    expect((await bearer('/invoice/', 'mt_short')).status).toBe(401);
    const basic = await fetch(`${origin}/api/v1/invoice/`, { headers: { authorization: `Basic ${token}` } });
    expect(basic.status).toBe(401);
  });

  it('passes /auth/* to account-service without a key, as the internal identity, dropping what the client sent', async () => {
    const res = await fetch(`${origin}/api/v1/auth/sessions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': 'ak_live_00000000000000000000000000000000',
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify({ email: 'a@b.example', password: 'x' }),
    });
    expect(res.status).toBe(201);
    expect(seen.at(-1)).toEqual({
      path: '/auth/sessions',
      scope: 'internal',
      company: undefined,
      member: undefined,
      role: undefined,
      auth: undefined,
      apiKey: undefined,
    });
  });

  it("passes /app/ to the dashboard with the browser's Host and address, and no identity", async () => {
    const res = await fetch(`${origin}/app/invoices?status=OPEN`, { headers: { [IDENTITY_HEADER]: 'forged' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('dashboard');
    expect(webSeen.at(-1)).toEqual({
      url: '/app/invoices?status=OPEN',
      host: new URL(origin).host,
      forwardedFor: '127.0.0.1',
      identity: 'forged',
    });
  });
});
