import { Router } from 'express';
import { createHttpApp, finalizeApp } from './http-app';
import { createIdentityVerifier } from './identity';
import { listen, type Listening } from './lifecycle';
import { createLogger } from './logger';

/** /metrics on a service-kit app: route templates as labels, exempt from identity, refused through a proxy when asked. */
describe('/metrics', () => {
  const servers: Listening[] = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
  });

  async function start(opts: { refuseForwarded?: boolean; label?: string }) {
    const logger = createLogger('metrics-test', 'silent');
    const app = createHttpApp({
      service: 'metrics-test',
      logger,
      identity: createIdentityVerifier(['metrics-test-signing-key-0123456789abcdef']),
      metricsRefuseForwarded: opts.refuseForwarded,
      metricsRouteLabel: opts.label ? () => opts.label : undefined,
    });
    const r = Router();
    r.get('/things/:id', (req, res) => {
      res.json({ id: req.params.id });
    });
    app.use(r);
    finalizeApp(app, logger);
    const s = await listen(app, 0);
    servers.push(s);
    return s.url;
  }

  it('answers without identity and labels requests by route template, never by raw path', async () => {
    const url = await start({});
    // identity is required for routes: the request is refused, but still counted under its template-less label
    expect((await fetch(`${url}/things/12345`)).status).toBe(401);
    expect((await fetch(`${url}/nowhere/98765`)).status).toBe(401);
    const res = await fetch(`${url}/metrics`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/^http_server_requests_total\{service="metrics-test",method="GET",route="other",status="401"\} 2$/m);
    expect(text).not.toContain('12345');
    expect(text).not.toContain('98765');
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
  });

  it('refuses scrapes that came through a proxy when asked to (the gateway)', async () => {
    const url = await start({ refuseForwarded: true, label: '/api/v1/things/*' });
    expect((await fetch(`${url}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.9' } })).status).toBe(404);
    expect((await fetch(`${url}/metrics`, { headers: { forwarded: 'for=203.0.113.9' } })).status).toBe(404);
    expect((await fetch(`${url}/api/v1/things/5`)).status).toBe(401);
    const direct = await fetch(`${url}/metrics`);
    expect(direct.status).toBe(200);
    const text = await direct.text();
    expect(text).toContain('method="GET",route="/metrics",status="404"} 2');
    // requests no express route matched carry the label the app gives them (the gateway: its table prefix)
    expect(text).toContain('method="GET",route="/api/v1/things/*",status="401"} 1');
  });
});
