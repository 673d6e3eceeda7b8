import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { deleteRedisKeys, TEST_IDENTITY_KEY, uniquePrefix } from '@inv/testing';
import { gatewayConfig } from './config';
import { createGateway } from './gateway';

jest.setTimeout(30_000);

/** Slow and greedy clients against the gateway's server limits (set small here), and the upstream timeout. */
describe('gateway edge limits', () => {
  const prefix = uniquePrefix('t-edge');
  const key = 'ak_live_abababababababababababababababab';
  let upstream: Server;
  let gateway: Awaited<ReturnType<typeof createGateway>>;
  let port: number;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    const app = express();
    app.use(express.json());
    app.post('/internal/auth/verify', (_req, res) => void res.json({ companyId: 'cmp_edge', keyId: 'key_edge', plan: 'pro' }));
    app.get('/invoice/7/preview', (_req, res) => void setTimeout(() => res.type('application/pdf').send('%PDF-'), 1000).unref());
    app.get('/customer/slow', (_req, res) => void setTimeout(() => res.json({ late: true }), 3000).unref());
    upstream = await new Promise<Server>((r) => {
      const s = app.listen(0, '127.0.0.1', () => r(s));
    });
    const up = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    gateway = await createGateway(
      gatewayConfig.parse({
        PORT: '0',
        LOG_LEVEL: 'silent',
        REDIS_PREFIX: `${prefix}:`,
        IDENTITY_SIGNING_KEYS: TEST_IDENTITY_KEY,
        HTTP_HEADERS_TIMEOUT_MS: '1000',
        HTTP_REQUEST_TIMEOUT_MS: '1500',
        HTTP_KEEP_ALIVE_TIMEOUT_MS: '500',
        HTTP_MAX_CONNECTIONS: '3',
        UPSTREAM_TIMEOUT_MS: '500',
        UPSTREAM_TIMEOUT_SLOW_MS: '5000',
        ACCOUNT_URL: up,
        CUSTOMER_URL: up,
        INVOICE_URL: up,
      }),
    );
    port = (await gateway.start()).port;
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.destroy();
  });
  afterAll(async () => {
    await gateway?.stop();
    upstream?.closeAllConnections();
    await new Promise((r) => upstream?.close(r));
    await deleteRedisKeys(`${prefix}:`);
  });

  /** A raw connection; resolves when it is open. `closed` resolves with the ms until the server closed it and what it sent. */
  const open = async () => {
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    const startedAt = Date.now();
    let received = '';
    socket.on('data', (d) => (received += d.toString()));
    socket.on('error', () => undefined);
    const closed = new Promise<{ afterMs: number; received: string }>((r) =>
      socket.once('close', () => r({ afterMs: Date.now() - startedAt, received })),
    );
    await new Promise((r) => socket.once('connect', r));
    return { socket, closed };
  };

  it('cuts a client that sends its headers too slowly', async () => {
    const { socket, closed } = await open();
    socket.write('GET /api/v1/openapi.json HTTP/1.1\r\nHost: x\r\n');
    const trickle = setInterval(() => socket.writable && socket.write('X-Slow: 1\r\n'), 200);
    const result = await closed;
    clearInterval(trickle);
    expect(result.afterMs).toBeLessThan(5000);
    expect(result.received).toMatch(/^HTTP\/1\.1 408|^$/);
  });

  it('cuts a client that sends its body too slowly', async () => {
    const { socket, closed } = await open();
    socket.write(
      `POST /api/v1/customer/ HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
    );
    const trickle = setInterval(() => socket.writable && socket.write(' '), 200);
    const result = await closed;
    clearInterval(trickle);
    expect(result.afterMs).toBeLessThan(6000);
  });

  it('closes idle keep-alive connections', async () => {
    const { socket, closed } = await open();
    socket.write('GET /api/v1/openapi.json HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
    const result = await closed;
    expect(result.received).toMatch(/^HTTP\/1\.1 200/);
    expect(result.afterMs).toBeLessThan(4000);
  });

  it('answers 504 problem+json when the service does not answer in time', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/customer/slow`, { headers: { 'x-api-key': key, connection: 'close' } });
    expect(res.status).toBe(504);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(((await res.json()) as { code: string }).code).toBe('UPSTREAM_TIMEOUT');
  });

  it('gives routes that render inline their own, longer upstream timeout', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/invoice/7/preview`, { headers: { 'x-api-key': key, connection: 'close' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('%PDF-');
  });

  it('refuses connections beyond the cap', async () => {
    const held = await Promise.all([open(), open(), open()]);
    const extra = await open();
    const result = await Promise.race([extra.closed, new Promise<undefined>((r) => setTimeout(() => r(undefined), 2000))]);
    expect(result).toBeDefined();
    expect(result!.received).toBe('');
    for (const h of held) h.socket.destroy();
  });
});
