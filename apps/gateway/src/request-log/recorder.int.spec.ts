import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createHttpApp, createLogger, finalizeApp } from '@inv/service-kit';
import { recordRequests } from './recorder';
import { requestLogRoutes } from './request-log.routes';
import type { RecordedRequest, RequestLogStore } from './store';

/** The recorder and the route with a store that works or fails at will (Redis down): the API answers either way. */
describe('request log when Redis fails', () => {
  const logger = createLogger('gateway-test', 'silent');
  const warn = jest.spyOn(logger, 'warn');
  let failing = false;
  const appended: RecordedRequest[] = [];
  const store: RequestLogStore = {
    append: async (_company, entry) => {
      if (failing) throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
      appended.push(entry);
    },
    page: async () => {
      if (failing) throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
      return { entries: [], next_cursor: null };
    },
  };
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const app = createHttpApp({ service: 'gateway-test', logger, jsonBody: false });
    const api = express.Router();
    api.use(recordRequests(store, logger));
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
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('records while the store works', async () => {
    expect((await fetch(`${base}/invoice/`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 20));
    expect(appended.at(-1)).toMatchObject({ method: 'GET', path: '/invoice/', status: 200, key_id: 'key_down', mode: 'live' });
  });

  it('answers every request when recording fails, and says so once, not per request', async () => {
    failing = true;
    warn.mockClear();
    for (let i = 0; i < 5; i++) expect((await fetch(`${base}/invoice/`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 20));
    const reports = warn.mock.calls.filter(([, msg]) => String(msg).includes('request log'));
    expect(reports).toHaveLength(1);
  });

  it('answers a read of the log 503 SERVICE_UNAVAILABLE, not 500', async () => {
    failing = true;
    const res = await fetch(`${base}/request-log/`);
    expect(res.status).toBe(503);
    expect(((await res.json()) as { code: string }).code).toBe('SERVICE_UNAVAILABLE');
  });
});
