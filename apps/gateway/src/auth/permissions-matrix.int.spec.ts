import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Agent, request } from 'undici';
import { PERMISSIONS, ROLE_PERMISSIONS, permissionOf, roleAllows, type Role } from '@inv/contracts';
import { createIdentityVerifier, createLogger, requireIdentity } from '@inv/service-kit';
import { deleteRedisKeys, identityHeaders, TEST_IDENTITY_KEY, uniquePrefix } from '@inv/testing';
import { gatewayConfig } from '../config';
import { createGateway } from '../gateway';
import { buildOpenApiDocument } from '../openapi/document';
import { isGatewayPath } from '../routes-table';
import { isPublicAuthPath } from './public-auth';

jest.setTimeout(120_000);

const ROLES = Object.keys(ROLE_PERMISSIONS) as Role[];
const keyOf = (role: Role) => `ak_live_${Buffer.from(role.padEnd(16, '0')).toString('hex')}`;

/** Every documented operation, its path parameters filled in. */
function routes() {
  const doc = buildOpenApiDocument() as { paths: Record<string, Record<string, unknown>> };
  return (
    Object.entries(doc.paths)
      .flatMap(([path, item]) =>
        ['get', 'post', 'put', 'delete', 'patch']
          .filter((m) => item[m])
          .map((m) => ({ method: m.toUpperCase(), path: path.replace(/\{[^}]+\}/g, '1') })),
      )
      // sign-in (/auth/*) needs no permission: it is how a member gets a credential (member-access.int.spec.ts)
      .filter((r) => !isPublicAuthPath(r.path))
  );
}

/** Spellings a router here might take for the same route: case, repeated and trailing slashes, a percent-escape. */
function spellings(path: string): string[] {
  const segments = path.split('/');
  const last = segments.length - 1 - [...segments].reverse().findIndex((s) => /^[a-z-]{2,}$/.test(s));
  const upper = segments.map((s, i) => (i === last ? s.toUpperCase() : s)).join('/');
  const escaped = segments.map((s, i) => (i === last ? `%${s.charCodeAt(0).toString(16)}${s.slice(1)}` : s)).join('/');
  const doubled = path.replace(/\/(?=[^/])/g, '//');
  const trailing = path.endsWith('/') ? `${path}/` : `${path}/`;
  return [...new Set([path, upper, escaped, doubled, trailing])];
}

/**
 * The permission check, route by route: every documented operation × every role × five spellings of its path,
 * through the gateway (whose upstream is a service's identity check, as in every service) and straight to the
 * service with a signed identity (the web app's way). A role without the route's permission never reaches a
 * handler: 403 (or 404 for a spelling nothing routes).
 */
describe('permissions: every route × every role × path spellings', () => {
  const prefix = uniquePrefix('t-perm');
  let upstream: Server;
  let service: string;
  let gateway: Awaited<ReturnType<typeof createGateway>>;
  let base: string;
  let handled = 0;
  const dispatcher = new Agent({ connections: 16 });

  beforeAll(async () => {
    const app = express();
    app.use(express.json());
    app.post('/internal/auth/verify', (req, res) => {
      const role = ROLES.find((r) => keyOf(r) === req.body.key);
      if (role) res.json({ companyId: 'cmp_perm', keyId: `key_${role}`, role, plan: 'pro' });
      else res.status(401).json({ message: 'unknown key' });
    });
    // what every service runs before its routes
    app.use(requireIdentity(createIdentityVerifier([TEST_IDENTITY_KEY]), createLogger('perm-test', 'silent')));
    app.use((_req, res) => {
      handled++;
      res.json({ ok: true });
    });
    upstream = await new Promise<Server>((r) => {
      const s = app.listen(0, '127.0.0.1', () => r(s));
    });
    service = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const services = Object.fromEntries(
      [
        'ACCOUNT_URL',
        'CUSTOMER_URL',
        'INVOICE_URL',
        'DOCUMENT_URL',
        'EXPORT_URL',
        'QUOTA_URL',
        'INBOUND_URL',
        'RECURRING_URL',
        'WEBHOOK_URL',
      ].map((name) => [name, service]),
    );
    gateway = await createGateway(
      gatewayConfig.parse({
        PORT: '0',
        LOG_LEVEL: 'silent',
        REDIS_PREFIX: `${prefix}:`,
        IDENTITY_SIGNING_KEYS: TEST_IDENTITY_KEY,
        RATE_LIMIT_PER_SECOND: '100000',
        ...services,
      }),
    );
    base = `${(await gateway.start()).url}/api/v1`;
  });
  afterAll(async () => {
    await gateway?.stop();
    upstream?.closeAllConnections();
    await new Promise((r) => upstream?.close(r));
    await dispatcher.close();
    await deleteRedisKeys(`${prefix}:`);
  });

  const send = async (url: string, method: string, headers: Record<string, string>) => {
    const before = handled;
    const res = await request(url, {
      method,
      headers: { ...headers, 'content-type': 'application/json' },
      body: method === 'GET' || method === 'DELETE' ? undefined : '{}',
      dispatcher,
    });
    await res.body.text();
    return { status: res.statusCode, reached: handled > before };
  };

  it('the table covers every permission and route', () => {
    const all = routes();
    expect(all.length).toBeGreaterThan(60);
    expect(new Set(all.map((r) => permissionOf(r.method, r.path)))).toEqual(new Set(PERMISSIONS));
  });

  it('through the gateway: a role lacking the permission never reaches the service', async () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const { method, path } of routes()) {
      const needed = permissionOf(method, path);
      for (const role of ROLES) {
        for (const spelling of spellings(path)) {
          const { status, reached } = await send(`${base}${spelling}`, method, { 'x-api-key': keyOf(role) });
          checked++;
          const allowed = roleAllows(role, needed);
          if (!allowed && (reached || ![403, 404].includes(status))) wrong.push(`${role} ${method} ${spelling} -> ${status}`);
          // the gateway's own routes (the request log) are answered there, not by a service
          if (allowed && spelling === path && ((!reached && !isGatewayPath(path)) || status !== 200))
            wrong.push(`${role} ${method} ${spelling} -> ${status} (allowed)`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(1000);
  });

  it('straight to a service (as the web app calls it): the signed role is checked there too', async () => {
    const wrong: string[] = [];
    for (const { method, path } of routes().filter((r) => !isGatewayPath(r.path))) {
      const needed = permissionOf(method, path);
      for (const role of ROLES) {
        const headers = await identityHeaders('cmp_perm', { role, keyId: `key_${role}` });
        for (const spelling of spellings(path)) {
          const { status, reached } = await send(`${service}${spelling}`, method, headers);
          const allowed = roleAllows(role, needed);
          if (!allowed && (reached || status !== 403)) wrong.push(`${role} ${method} ${spelling} -> ${status}`);
          if (allowed && spelling === path && !reached) wrong.push(`${role} ${method} ${spelling} -> ${status} (allowed)`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
