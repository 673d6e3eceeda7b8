import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createHttpApp, createLogger, finalizeApp } from '@inv/service-kit';
import { waitFor } from '@inv/testing';
import { createRequestRecorder } from './recorder';
import { requestLogRoutes } from './request-log.routes';
import type { RecordedRequest, RequestLogStore } from './store';

/** The recorder and the route with a store that works, fails or hangs at will (Redis down): the API answers either way. */
describe('request log recorder', () => {
  const logger = createLogger('gateway-test', 'silent');
  const warn = jest.spyOn(logger, 'warn');
  let mode: 'ok' | 'failing' | 'hanging' = 'ok';
  const writes: RecordedRequest[][] = [];
  let release: () => void = () => undefined;
  const store: RequestLogStore = {
    append: async (batch) => {
      if (mode === 'failing') throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
      if (mode === 'hanging') await new Promise<void>((r) => (release = r));
      writes.push(batch.map((b) => b.entry));
    },
    page: async () => {
      if (mode !== 'ok') throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
      return { entries: [], next_cursor: null };
    },
  };
  const recorder = createRequestRecorder(store, logger, { flushMs: 30, maxQueued: 5 });
  let server: Server;
  let base: string;
  const written = () => writes.flat();

  beforeAll(async () => {
    const app = createHttpApp({ service: 'gateway-test', logger, jsonBody: false });
    const api = express.Router();
    api.use(recorder.middleware);
    api.use((_req, res, next) => {
      res.locals.companyId = 'cmp_down';
      res.locals.mode = 'live';
      res.locals.signedIdentity = { scope: 'company', companyId: 'cmp_down', keyId: 'key_down' };
      next();
    });
    api.use(requestLogRoutes(store, logger));
    api.get('/invoice/', (_req, res) => {
      res.json({ ok: true });
    });
    app.use('/api/v1', api);
    finalizeApp(app, logger);
    server = await new Promise<Server>((r) => {
      const s = app.listen(0, '127.0.0.1', () => r(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  });
  afterAll(async () => {
    release();
    await recorder.stop();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('writes the entries of a moment together, in one write', async () => {
    await Promise.all([1, 2, 3].map((i) => fetch(`${base}/invoice/?n=${i}`)));
    await waitFor(() => written().length === 3);
    expect(writes).toHaveLength(1);
    expect(writes[0]!.map((e) => e.path).sort()).toEqual(['/invoice/?n=1', '/invoice/?n=2', '/invoice/?n=3']);
    expect(writes[0]![0]).toMatchObject({ method: 'GET', status: 200, key_id: 'key_down', mode: 'live', idempotency_key: null });
  });

  it('answers every request when recording fails, and says so once, not per request', async () => {
    mode = 'failing';
    warn.mockClear();
    for (let i = 0; i < 5; i++) {
      expect((await fetch(`${base}/invoice/`)).status).toBe(200);
      await new Promise((r) => setTimeout(r, 40)); // a write per request
    }
    await waitFor(() => warn.mock.calls.length > 0);
    expect(warn.mock.calls.filter(([, msg]) => String(msg).includes('request log'))).toHaveLength(1);
  });

  it('keeps at most maxQueued entries while a write hangs; the rest are dropped', async () => {
    mode = 'hanging';
    writes.length = 0;
    await fetch(`${base}/invoice/?first`);
    await new Promise((r) => setTimeout(r, 60)); // its write started and hangs
    for (let i = 0; i < 8; i++) expect((await fetch(`${base}/invoice/?i=${i}`)).status).toBe(200);
    mode = 'ok';
    release();
    await waitFor(() => written().length === 6);
    await new Promise((r) => setTimeout(r, 60));
    expect(written().map((e) => e.path)).toEqual(['/invoice/?first', ...[0, 1, 2, 3, 4].map((i) => `/invoice/?i=${i}`)]);
  });

  it('answers a read of the log 503 SERVICE_UNAVAILABLE, not 500', async () => {
    mode = 'failing';
    const res = await fetch(`${base}/request-log/`);
    expect(res.status).toBe(503);
    expect(((await res.json()) as { code: string }).code).toBe('SERVICE_UNAVAILABLE');
    mode = 'ok';
  });
});
