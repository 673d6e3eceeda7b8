import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { createIdentitySigner, createIdentityVerifier, IDENTITY_HEADER } from './identity';
import { problemText, serviceClient, ServiceAnswerInvalid, ServiceUnavailable } from './service-client';

const KEY = 'k'.repeat(40);
const signer = createIdentitySigner([KEY]);
const verifier = createIdentityVerifier([KEY]);
const identity = { scope: 'company' as const, companyId: '42', keyId: 'test-caller', role: 'member' };
const Thing = z.object({ id: z.number().int(), name: z.string() });

type Handler = (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void;
let handler: Handler;
let server: http.Server;
let url: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => handler(req, body, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const json = (res: http.ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

function client(timeoutMs = 2000) {
  return serviceClient({ url, service: 'thing-service', signer, timeoutMs });
}

describe('serviceClient', () => {
  it('signs the call with the identity and sends the JSON body', async () => {
    let seen: { token?: string; body?: string; method?: string; type?: string } = {};
    handler = (req, body, res) => {
      seen = { token: req.headers[IDENTITY_HEADER] as string, body, method: req.method, type: req.headers['content-type'] };
      json(res, 201, { id: 7, name: 'seven' });
    };
    const c = client();
    const answer = await c.call({ method: 'POST', path: '/things', identity, body: { name: 'seven' }, answer: Thing });
    c.close();
    expect(answer).toEqual({ ok: true, status: 201, body: { id: 7, name: 'seven' } });
    expect(seen.method).toBe('POST');
    expect(seen.type).toBe('application/json');
    expect(JSON.parse(seen.body!)).toEqual({ name: 'seven' });
    const verified = await verifier.verify(seen.token);
    expect(verified).toMatchObject({ scope: 'company', companyId: '42', keyId: 'test-caller', role: 'member' });
  });

  it('checks a 2xx answer against the contract: a wrong one is a ServiceAnswerInvalid naming the field', async () => {
    handler = (_req, _body, res) => json(res, 200, { id: 'seven', name: 'seven' });
    const c = client();
    const err = await c.call({ method: 'GET', path: '/things/7', identity, answer: Thing }).catch((e: unknown) => e);
    c.close();
    expect(err).toBeInstanceOf(ServiceAnswerInvalid);
    expect((err as ServiceAnswerInvalid).status).toBe(200);
    expect((err as Error).message).toMatch(/thing-service GET \/things\/7: answered 200 not as its contract says: id:/);
  });

  it('refuses a 2xx answer that is not JSON', async () => {
    handler = (_req, _body, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>');
    const c = client();
    await expect(c.call({ method: 'GET', path: '/things/7', identity, answer: Thing })).rejects.toBeInstanceOf(ServiceAnswerInvalid);
    c.close();
  });

  it('answers a 4xx as a problem, read leniently', async () => {
    handler = (_req, _body, res) =>
      json(res, 422, {
        code: 'INVOICE_NOT_VALID',
        message: 'not valid',
        errors: [{ field: 'buyerReference', message: 'missing' }],
        extra: 1,
      });
    const c = client();
    const answer = await c.call({ method: 'POST', path: '/things', identity, body: {}, answer: Thing });
    c.close();
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(answer.status).toBe(422);
    expect(answer.problem.code).toBe('INVOICE_NOT_VALID');
    expect(problemText(answer.status, answer.problem)).toBe('422 INVOICE_NOT_VALID: not valid [buyerReference]');
  });

  it('a 404 without a body is an answer too', async () => {
    handler = (_req, _body, res) => res.writeHead(404).end();
    const c = client();
    await expect(c.call({ method: 'GET', path: '/things/8', identity, answer: Thing })).resolves.toEqual({
      ok: false,
      status: 404,
      problem: {},
    });
    c.close();
  });

  it.each([500, 503, 429])('%s is ServiceUnavailable with the status', async (status) => {
    handler = (_req, _body, res) => json(res, status, { code: 'SERVICE_UNAVAILABLE', message: 'later' });
    const c = client();
    const err = await c.call({ method: 'GET', path: '/things/7', identity, answer: Thing }).catch((e: unknown) => e);
    c.close();
    expect(err).toBeInstanceOf(ServiceUnavailable);
    expect((err as ServiceUnavailable).status).toBe(status);
    expect((err as Error).message).toContain(`${status} SERVICE_UNAVAILABLE: later`);
  });

  it('gives up after the timeout: ServiceUnavailable (TimeoutError), a slow trickle too', async () => {
    handler = (_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id": 7,');
      // never ends
    };
    const c = client(200);
    const started = Date.now();
    const err = await c.call({ method: 'GET', path: '/things/7', identity, answer: Thing }).catch((e: unknown) => e);
    c.close();
    expect(err).toBeInstanceOf(ServiceUnavailable);
    expect((err as Error).message).toMatch(/TimeoutError/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('an aborted call is ServiceUnavailable (AbortError)', async () => {
    handler = () => undefined; // never answers
    const c = client(5000);
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 50);
    const err = await c.call({ method: 'GET', path: '/things/7', identity, answer: Thing, signal: ctl.signal }).catch((e: unknown) => e);
    c.close();
    expect(err).toBeInstanceOf(ServiceUnavailable);
    expect((err as Error).message).toMatch(/AbortError/);
  });

  it('a service that cannot be reached is ServiceUnavailable', async () => {
    const c = serviceClient({ url: 'http://127.0.0.1:1', service: 'nowhere', signer, timeoutMs: 1000 });
    const err = await c.call({ method: 'GET', path: '/x', identity, answer: Thing }).catch((e: unknown) => e);
    c.close();
    expect(err).toBeInstanceOf(ServiceUnavailable);
    expect((err as ServiceUnavailable).status).toBeUndefined();
  });

  it('reuses a signed token per identity when asked to', async () => {
    const tokens: string[] = [];
    handler = (req, _body, res) => (tokens.push(req.headers[IDENTITY_HEADER] as string), json(res, 200, { id: 1, name: 'one' }));
    const c = serviceClient({ url, service: 'thing-service', signer, timeoutMs: 2000, reuseTokens: true });
    await c.call({ method: 'GET', path: '/things/1', identity, answer: Thing });
    await c.call({ method: 'GET', path: '/things/1', identity, answer: Thing });
    await c.call({ method: 'GET', path: '/things/1', identity: { ...identity, companyId: '43' }, answer: Thing });
    c.close();
    expect(tokens[0]).toBe(tokens[1]);
    expect(tokens[2]).not.toBe(tokens[0]);
  });
});
