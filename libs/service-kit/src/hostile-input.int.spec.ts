import { connect, type AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Router } from 'express';
import fc from 'fast-check';
import { z } from 'zod';
import { createHttpApp, finalizeApp } from './http-app';
import { createLogger } from './logger';
import { listen } from './lifecycle';
import { parseInput, parsePath, parseQuery } from './parse';

jest.setTimeout(60_000);

/** One service-kit app with typical routes (path id, query, JSON body), probed with hostile requests. */
describe('hostile input gets a 4xx problem, never a 5xx', () => {
  let server: Server;
  let base: string;
  const Id = z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 31 - 1);
  const Body = z.object({ name: z.string().max(100), amount: z.number().max(1e9), tags: z.array(z.string()).max(10).optional() });

  beforeAll(async () => {
    const logger = createLogger('hostile', 'silent');
    const app = createHttpApp({ service: 'hostile', logger, nonJsonBodyPaths: [/^\/things\/[^/]+\/upload$/] });
    const r = Router();
    r.get('/things/', (req, res) => {
      res.json(parseQuery(z.object({ page: z.coerce.number().int().min(1).default(1), status: z.enum(['a', 'b']).optional() }), req.query));
    });
    r.post('/things/', (req, res) => {
      res.status(201).json(parseInput(Body, req.body));
    });
    r.get('/things/:id', (req, res) => {
      res.json({ id: parsePath(Id, req.params, 'id') });
    });
    r.put('/things/:id', (req, res) => {
      res.json({ id: parsePath(Id, req.params, 'id'), ...parseInput(Body.partial(), req.body) });
    });
    r.post('/things/:id/upload', (req, res) => {
      req.resume();
      req.on('end', () => res.status(201).json({ ok: true }));
    });
    app.use(r);
    finalizeApp(app, logger);
    // as the services listen: with the answer to requests Node's HTTP parser refuses
    server = (await listen(app, 0, '127.0.0.1')).server;
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
  });

  const send = async (method: string, path: string, body?: string | Uint8Array, type = 'application/json') => {
    const res = await fetch(`${base}${path}`, { method, headers: body === undefined ? {} : { 'content-type': type }, body });
    const text = await res.text();
    let json: Record<string, unknown> | undefined;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, body: json, headers: res.headers };
  };

  it('bad percent-encoding in a path parameter answers 400', async () => {
    for (const bad of ['%C0%AF', '%E0%A4%A', '%', '%zz', '%80']) {
      const res = await send('GET', `/things/${bad}`);
      expect([res.status, res.body?.error_code]).toEqual([400, 'MALFORMED_PATH']);
    }
  });

  it('JSON nested deeper than 64 answers 400 before any recursion (10,000 deep)', async () => {
    const deep = '['.repeat(10_000) + ']'.repeat(10_000);
    const res = await send('POST', '/things/', `{"name":"x","amount":1,"tags":${deep}}`);
    expect([res.status, res.body?.error_code]).toEqual([400, 'NESTING_TOO_DEEP']);
    const ok = await send('POST', '/things/', JSON.stringify({ name: '[[[[', amount: 1 }));
    expect(ok.status).toBe(201);
  });

  it('a non-JSON Content-Type on a JSON route answers 415; an upload route may opt out', async () => {
    const res = await send('POST', '/things/', '{"name":"x","amount":1}', 'text/plain');
    expect([res.status, res.body?.error_code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    expect((await send('POST', '/things/1/upload', 'raw bytes', 'application/octet-stream')).status).toBe(201);
    expect((await send('POST', '/things/', '{"name":"x","amount":1}', 'application/json; charset=utf-8')).status).toBe(201);
  });

  it('a body over the limit answers 413 whatever its type', async () => {
    const big = new Uint8Array(2 * 1024 * 1024).fill(0x61);
    expect((await send('POST', '/things/', big, 'text/plain')).status).toBe(413);
    expect((await send('POST', '/things/', big, 'application/json')).status).toBe(413);
  });

  it('a wrong method on a known path answers 405 with Allow', async () => {
    const res = await send('DELETE', '/things/7');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, PUT');
    expect((await send('GET', '/nothing/here')).status).toBe(404);
  });

  it('names the missing field "required", and the path or query parameter it concerns', async () => {
    const missing = await send('POST', '/things/', '{"name":"x"}');
    expect(missing.body?.errors).toEqual([{ path: 'amount', message: 'required' }]);
    const path = await send('GET', '/things/abc');
    expect(path.body?.errors).toEqual([{ path: 'id', in: 'path', message: expect.any(String) }]);
    const query = await send('GET', '/things/?status=c');
    expect(query.body?.errors).toEqual([{ path: 'status', in: 'query', message: expect.any(String) }]);
  });

  /** A request written byte for byte (fetch would percent-encode the target). */
  const rawRequest = (target: Buffer) =>
    new Promise<{ status: number; type: string; body: Record<string, unknown> | undefined }>((resolve, reject) => {
      const socket = connect((server.address() as AddressInfo).port, '127.0.0.1', () =>
        socket.end(Buffer.concat([Buffer.from('GET '), target, Buffer.from(' HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')])),
      );
      const chunks: Buffer[] = [];
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('error', reject);
      socket.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const [head, body] = [text.slice(0, text.indexOf('\r\n\r\n')), text.slice(text.indexOf('\r\n\r\n') + 4)];
        resolve({
          status: Number(head.split(' ')[1]),
          type: /content-type: ([^\r]+)/i.exec(head)?.[1] ?? '',
          body: body ? (JSON.parse(body) as Record<string, unknown>) : undefined,
        });
      });
    });

  it('raw UTF-8 or a space in the query string answers a JSON problem that says to percent-encode', async () => {
    const utf8 = await rawRequest(Buffer.from('/things/?status=Müller', 'utf8'));
    expect([utf8.status, utf8.type, utf8.body?.error_code]).toEqual([400, 'application/problem+json', 'MALFORMED_REQUEST']);
    expect(utf8.body?.detail).toMatch(/non-ASCII.*percent-encode them as UTF-8 \(ü is %C3%BC/);
    const space = await rawRequest(Buffer.from('/things/?status=a b'));
    expect([space.status, space.body?.error_code, space.body?.detail]).toEqual([
      400,
      'MALFORMED_REQUEST',
      expect.stringMatching(/space.*%20/),
    ]);
    // the same value percent-encoded is read (and then judged by the route)
    const encoded = await rawRequest(Buffer.from(`/things/?status=${encodeURIComponent('Müller')}`));
    expect([encoded.status, encoded.body?.errors]).toEqual([400, [expect.objectContaining({ path: 'status', in: 'query' })]]);
  });

  it('fuzz: 2,000 random requests get no 5xx, and every 4xx is a problem with a message', async () => {
    const statuses: Record<string, number> = {};
    const segment = fc.oneof(
      fc.string({ maxLength: 12 }).map(encodeURIComponent),
      fc.constantFrom('%', '%C0%AF', '%E0%A4%A', '..', '7', '-1', '99999999999999999999', 'things'),
    );
    const bodyText = fc.oneof(
      fc.json({ maxDepth: 6 }),
      fc.string({ maxLength: 200 }),
      fc
        .record({ name: fc.anything(), amount: fc.anything(), tags: fc.anything() }, { requiredKeys: [] })
        .map((o) => JSON.stringify(o) ?? 'null'),
      fc.integer({ min: 65, max: 3000 }).map((n) => '{"a":'.repeat(n) + '1' + '}'.repeat(n)),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
        fc.boolean(),
        fc.array(segment, { minLength: 1, maxLength: 3 }),
        fc.option(bodyText, { nil: undefined }),
        fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/merge-patch+json'),
        async (method, known, segments, body, type) => {
          const path = `/${known ? 'things/' : ''}${segments.join('/')}${known ? '?page=' + segments[0] + '&status=' + segments.at(-1) : ''}`;
          const res = await send(method, path, method === 'GET' || method === 'DELETE' ? undefined : body, type);
          statuses[`${Math.floor(res.status / 100)}xx`] = (statuses[`${Math.floor(res.status / 100)}xx`] ?? 0) + 1;
          expect(res.status).toBeLessThan(500);
          if (res.status >= 400) expect(typeof res.body?.message).toBe('string');
        },
      ),
      { numRuns: 2_000 },
    );
    console.log('fuzz status classes', statuses);
    expect(Object.values(statuses).reduce((a, b) => a + b, 0)).toBe(2_000);
  });
});
