import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { Bus } from '@inv/bus';
import { asCompanyId, testTwinOf, type Messages } from '@inv/contracts';
import { createIdentityVerifier, IDENTITY_HEADER } from '@inv/service-kit';
import { deleteBrokerObjects, peerBus, serviceCaller, TEST_IDENTITY_KEY, testEnv, testMongo, uniquePrefix, waitFor } from '@inv/testing';
import { webhookConfig } from './config';
import { startReceiver, type Receiver } from './testing/receiver';
import { createWebhookService } from './webhook-service';

jest.setTimeout(90_000);

/**
 * Test mode and webhooks (docs/test-mode.md): an endpoint created with a test key belongs to the company's test twin
 * (`test~<company>`, the id the gateway puts into a test key's identity) and receives the twin's events only; an
 * endpoint created with the live key receives none of them, and its delivery log shows none; neither key can see,
 * change or delete the other's endpoint (404, as for another company's).
 */
describe('webhook-service: test mode', () => {
  const prefix = uniquePrefix('wt');
  const live = asCompanyId(`cmp_whtm_${prefix.slice(3)}`);
  const twin = testTwinOf(live);
  let mongo: Awaited<ReturnType<typeof testMongo>>;
  let service: Awaited<ReturnType<typeof createWebhookService>>;
  let owners: { url: string; seen: { path: string; company: string }[]; close(): Promise<unknown> };
  let receiver: Receiver;
  let peer: Bus<Messages>;
  let base = '';
  const asLive = serviceCaller(() => base, live);
  const asTest = serviceCaller(() => base, twin);

  /** GET /invoice/:id as invoice-service answers it; records whose identity asked (the event's company). */
  async function fakeOwners() {
    const seen: { path: string; company: string }[] = [];
    const server: Server = createServer((req, res) => {
      const token = String(req.headers[IDENTITY_HEADER] ?? '');
      void createIdentityVerifier([TEST_IDENTITY_KEY])
        .verify(token)
        .then((identity) => (identity.scope === 'company' ? (identity.companyId ?? '') : ''))
        .catch(() => '')
        .then((company) => {
          seen.push({ path: req.url ?? '', company });
          const m = /^\/invoice\/(\d+)$/.exec(req.url ?? '');
          if (!m) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ id: Number(m[1]), invoice_id: Number(m[1]), status: 'PAID', invoice_number: `RE-${m[1]}` }));
        });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close: () => new Promise((r) => server.close(r)) };
  }

  beforeAll(async () => {
    mongo = await testMongo();
    owners = await fakeOwners();
    receiver = await startReceiver();
    service = await createWebhookService(
      webhookConfig.parse(
        testEnv(prefix, mongo.uri, {
          INVOICE_URL: owners.url,
          CUSTOMER_URL: owners.url,
          EXPORT_URL: owners.url,
          QUOTA_URL: owners.url,
          INBOUND_URL: owners.url,
          WEBHOOK_POLL_MS: '50',
        }),
      ),
    );
    base = (await service.start()).url;
    peer = peerBus(prefix);
    peer.serveRpc('account.company-owners.v1', async () => ({ found: true, emails: ['owner@firma.example'] }));
    await peer.start();
  });
  afterAll(async () => {
    await service?.stop();
    await peer?.stop();
    await receiver?.close();
    await owners?.close();
    await deleteBrokerObjects(prefix);
    await mongo?.stop();
  });

  const invoiceIdsAt = (path: string, secret: string) =>
    receiver.received
      .filter((r) => r.path === path)
      .map(
        (r) =>
          (
            new Webhook(secret).verify(r.body, {
              'webhook-id': String(r.headers['webhook-id']),
              'webhook-timestamp': String(r.headers['webhook-timestamp']),
              'webhook-signature': String(r.headers['webhook-signature']),
            }) as { data: { invoice: { id: number } } }
          ).data.invoice.id,
      )
      .sort((a, b) => a - b);
  const paid = (company: typeof live, invoiceId: number) =>
    peer.publishEvent('invoice.status-changed.v1', company, { invoiceId, customerId: 1, status: 'PAID' });

  it("delivers the twin's events to the test endpoint only, and the live company's to the live endpoint only", async () => {
    const liveEp = await asLive('POST', '/webhook-endpoints/', { url: receiver.url('/live'), event_types: ['*'] });
    const testEp = await asTest('POST', '/webhook-endpoints/', { url: receiver.url('/test'), event_types: ['*'] });
    expect([liveEp.status, testEp.status]).toEqual([201, 201]);

    // test-mode activity first, then the live company's own event
    await paid(twin, 201);
    await paid(twin, 202);
    await paid(live, 101);
    await waitFor(() => invoiceIdsAt('/test', testEp.body.secret).length >= 2 && invoiceIdsAt('/live', liveEp.body.secret).length >= 1, {
      what: 'the deliveries',
    });
    const deliveriesOf = async (call: typeof asLive, id: string) =>
      ((await call('GET', `/webhook-endpoints/${id}/deliveries`)).body.deliveries as { event_id: string; status: string }[]) ?? [];
    // every delivery of both endpoints is there (written when the event arrived) and done
    await waitFor(
      async () =>
        (await deliveriesOf(asLive, liveEp.body.id)).every((d) => d.status === 'delivered') &&
        (await deliveriesOf(asTest, testEp.body.id)).every((d) => d.status === 'delivered'),
      { what: 'the delivery logs' },
    );
    expect(invoiceIdsAt('/test', testEp.body.secret)).toEqual([201, 202]);
    expect(invoiceIdsAt('/live', liveEp.body.secret)).toEqual([101]);
    // the live endpoint, read with the live key after the test-mode activity: one delivery, the live event's
    expect(await deliveriesOf(asLive, liveEp.body.id)).toHaveLength(1);
    expect(await deliveriesOf(asTest, testEp.body.id)).toHaveLength(2);
    // each event's resource was read as its own company (a test event never with the live identity)
    const readAs = (id: number) => [...new Set(owners.seen.filter((s) => s.path === `/invoice/${id}`).map((s) => s.company))];
    expect([readAs(201), readAs(202), readAs(101)]).toEqual([[twin], [twin], [live]]);

    // the lists: each key sees its own endpoint only
    expect(((await asLive('GET', '/webhook-endpoints/')).body.endpoints as { id: string }[]).map((e) => e.id)).toEqual([liveEp.body.id]);
    expect(((await asTest('GET', '/webhook-endpoints/')).body.endpoints as { id: string }[]).map((e) => e.id)).toEqual([testEp.body.id]);
  });

  it('answers 404 to a test key on the live endpoint and to the live key on the test endpoint, on every route', async () => {
    const liveEp = await asLive('POST', '/webhook-endpoints/', { url: receiver.url('/live-2'), event_types: ['*'] });
    const testEp = await asTest('POST', '/webhook-endpoints/', { url: receiver.url('/test-2'), event_types: ['*'] });
    const routes = (id: string) =>
      [
        ['GET', `/webhook-endpoints/${id}`],
        ['PUT', `/webhook-endpoints/${id}`, { enabled: false }],
        ['POST', `/webhook-endpoints/${id}/rotate-secret`],
        ['POST', `/webhook-endpoints/${id}/test`],
        ['GET', `/webhook-endpoints/${id}/deliveries`],
        ['POST', `/webhook-endpoints/${id}/replay`, { since: new Date(0).toISOString() }],
        ['DELETE', `/webhook-endpoints/${id}`],
      ] as const;
    const unknown = await asTest('GET', '/webhook-endpoints/we_000000000000000000000000');
    for (const [method, path, body] of routes(liveEp.body.id)) {
      const res = await asTest(method, path, body);
      // the same answer as for an endpoint that does not exist
      expect([method, path, res.status, res.body?.error_code]).toEqual([method, path, 404, unknown.body?.error_code]);
    }
    for (const [method, path, body] of routes(testEp.body.id))
      expect([method, path, (await asLive(method, path, body)).status]).toEqual([method, path, 404]);
    // both are untouched: enabled, same secret (no rotation), there
    const [liveNow, testNow] = [
      await asLive('GET', `/webhook-endpoints/${liveEp.body.id}`),
      await asTest('GET', `/webhook-endpoints/${testEp.body.id}`),
    ];
    expect([liveNow.status, liveNow.body.enabled, liveNow.body.secret_rotated_at ?? null]).toEqual([200, true, null]);
    expect([testNow.status, testNow.body.enabled, testNow.body.secret_rotated_at ?? null]).toEqual([200, true, null]);
    // no test ping reached either endpoint through the other key
    expect(receiver.received.filter((r) => r.path === '/live-2' || r.path === '/test-2')).toEqual([]);
  });
});
