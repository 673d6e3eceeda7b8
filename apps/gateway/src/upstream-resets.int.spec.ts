import { request, type IncomingMessage } from 'node:http';
import { createServer, type Server as NetServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { AppError, createHttpApp, createLogger, finalizeApp } from '@inv/service-kit';
import { deleteRedisKeys, TEST_IDENTITY_KEY, uniquePrefix } from '@inv/testing';
import { gatewayConfig } from './config';
import { createGateway } from './gateway';

jest.setTimeout(60_000);

/**
 * What a client sees when a service closes a connection under the gateway: a kept-alive socket the service
 * dropped, and a refusal (413) answered while the body is still arriving. Never a 503/504 or a reset.
 */
describe('gateway and upstream connections', () => {
  const prefix = uniquePrefix('t-resets');
  const key = 'ak_live_cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd';
  let service: Server;
  let flaky: NetServer;
  let gateway: Awaited<ReturnType<typeof createGateway>>;
  let port: number;
  /** Requests the flaky upstream received per method, and the kept-alive sockets it reset. */
  const seen = { GET: 0, POST: 0, PUT: 0, resets: 0 };

  beforeAll(async () => {
    // a service as the real ones are built (service-kit's app): the auth check, and an upload refused past 1 MiB
    // with connection: close while the body still arrives (as invoice-, inbound-service's document routes do)
    const app = createHttpApp({ service: 'fake', logger: createLogger('fake', 'silent'), jsonBody: false });
    app.post('/internal/auth/verify', (req, res) => {
      req.resume();
      req.on('end', () => void res.json({ companyId: 'cmp_resets', keyId: 'key_resets', plan: 'pro' }));
    });
    app.post('/invoice/:id/attachments', async (req, res) => {
      let size = 0;
      try {
        await new Promise<void>((resolve, reject) => {
          req.on('data', (c: Buffer) => {
            size += c.length;
            if (size > 1024 * 1024)
              reject(new AppError('payload_too_large', 'an attachment may have at most 1 MiB', { code: 'ATTACHMENT_TOO_LARGE' }));
          });
          req.on('end', resolve);
        });
      } catch (err) {
        if (!req.complete) res.setHeader('connection', 'close');
        throw err;
      }
      res.status(201).json({ size });
    });
    finalizeApp(app, createLogger('fake', 'silent'));
    service = await new Promise<Server>((r) => {
      const s = app.listen(0, '127.0.0.1', () => r(s));
    });

    // an upstream that answers the first request of a connection (keep-alive) and resets the connection when a
    // second request comes on it: what a service's keep-alive timeout does to a pooled socket at the wrong moment
    flaky = createServer((socket: Socket) => {
      let requests = 0;
      let buffered = '';
      socket.on('data', (d) => {
        buffered += d.toString('latin1');
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffered.slice(0, end);
        const length = Number(/content-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        buffered = buffered.slice(end + 4 + length);
        const method = head.split(' ')[0] as 'GET' | 'POST' | 'PUT';
        if (++requests > 1) {
          seen.resets++;
          socket.resetAndDestroy();
          return;
        }
        seen[method]++;
        const body = JSON.stringify({ method });
        socket.write(
          `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: keep-alive\r\n\r\n${body}`,
        );
      });
      socket.on('error', () => undefined);
    });
    await new Promise<void>((r) => flaky.listen(0, '127.0.0.1', () => r()));

    const up = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
    gateway = await createGateway(
      gatewayConfig.parse({
        PORT: '0',
        LOG_LEVEL: 'silent',
        REDIS_PREFIX: `${prefix}:`,
        IDENTITY_SIGNING_KEYS: TEST_IDENTITY_KEY,
        RATE_LIMIT_PER_SECOND: '100000',
        ACCOUNT_URL: up,
        INVOICE_URL: up,
        INBOUND_URL: up,
        CUSTOMER_URL: `http://127.0.0.1:${(flaky.address() as AddressInfo).port}`,
      }),
    );
    port = (await gateway.start()).port;
  });
  afterAll(async () => {
    await gateway?.stop();
    service?.closeAllConnections();
    await new Promise((r) => service?.close(r));
    await new Promise((r) => flaky?.close(r));
    await deleteRedisKeys(`${prefix}:`);
  });

  /** One request through the gateway with node:http (no Expect: 100-continue): the answer, or the socket's error. */
  const send = (method: string, path: string, body?: Buffer, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; body: string; type?: string } | { error: string }>((resolve) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method,
          path: `/api/v1${path}`,
          headers: { 'x-api-key': key, ...(body ? { 'content-length': String(body.length) } : {}), ...headers },
          agent: false,
        },
        (res: IncomingMessage) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, type: res.headers['content-type'] }));
          res.on('error', (err) => resolve({ error: String(err) }));
        },
      );
      req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? String(err) }));
      req.end(body);
    });

  it('sends an idempotent request again when its pooled upstream socket was reset, once', async () => {
    for (const method of ['GET', 'PUT'] as const) {
      const body = method === 'PUT' ? Buffer.from(JSON.stringify({ name: 'x' })) : undefined;
      const headers = body ? { 'content-type': 'application/json' } : undefined;
      // the first request leaves its socket in the gateway's pool; the second gets it and the upstream resets it
      expect(await send(method, '/customer/1', body, headers)).toMatchObject({ status: 200 });
      const resetsBefore = seen.resets;
      const again = await send(method, '/customer/1', body, headers);
      expect(seen.resets).toBe(resetsBefore + 1);
      expect(again).toMatchObject({ status: 200, body: JSON.stringify({ method }) });
    }
  });

  it('does not send a POST again (its effect may have happened): the reset is answered', async () => {
    const body = Buffer.from('{}');
    const headers = { 'content-type': 'application/json' };
    // a GET leaves a used socket in the pool (it is retried itself if it met one); the POST gets that socket
    expect(await send('GET', '/customer/1')).toMatchObject({ status: 200 });
    const posts = seen.POST;
    const resetsBefore = seen.resets;
    const answer = await send('POST', '/customer/', body, headers);
    expect(seen.resets).toBe(resetsBefore + 1);
    expect(seen.POST).toBe(posts);
    expect(answer).toMatchObject({ status: 504 });
  });

  it('passes a 413 the service answers mid-body on, never a 503 or a reset (several times, to catch the race)', async () => {
    const upload = Buffer.alloc(4 * 1024 * 1024, 'a');
    const answers: string[] = [];
    for (let i = 0; i < 12; i++) {
      const a = await send('POST', '/invoice/1/attachments', upload, { 'content-type': 'application/pdf' });
      answers.push('error' in a ? a.error : `${a.status} ${JSON.parse(a.body).code}`);
    }
    expect(answers).toEqual(Array(12).fill('413 ATTACHMENT_TOO_LARGE'));
  });

  it('refuses a raw XML document past its own limit at the gateway (5 MiB, though the route takes 10 MiB PDFs)', async () => {
    const xml = Buffer.alloc(5 * 1024 * 1024 + 1, 'a');
    const answers: string[] = [];
    for (let i = 0; i < 6; i++) {
      const a = await send('POST', '/inbound/', xml, { 'content-type': 'application/xml' });
      answers.push('error' in a ? a.error : `${a.status} ${a.type?.split(';')[0]} ${JSON.parse(a.body).code}`);
    }
    expect(answers).toEqual(Array(6).fill('413 application/problem+json PAYLOAD_TOO_LARGE'));
    // a JSON body just over 1 MiB, sent whole: the gateway's 413 is read, not cut by a reset
    const json = Buffer.from(`{"note":"${'n'.repeat(1024 * 1024)}"}`);
    for (let i = 0; i < 6; i++) {
      const a = await send('POST', '/invoice/', json, { 'content-type': 'application/json' });
      expect('error' in a ? a.error : a.status).toBe(413);
    }
  });
});
