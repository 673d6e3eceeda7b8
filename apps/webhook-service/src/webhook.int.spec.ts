import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { Bus } from '@inv/bus';
import { IDENTITY_HEADER } from '@inv/service-kit';
import type { Messages } from '@inv/contracts';
import { deleteBrokerObjects, identityHeaders, peerBus, serviceCaller, testEnv, testMongo, uniquePrefix, waitFor } from '@inv/testing';
import { webhookConfig } from './config';
import { startReceiver, type Receiver } from './testing/receiver';
import { createWebhookService } from './webhook-service';

jest.setTimeout(90_000);

/** The owning services as the webhook-service reads them: GET /invoice/:id answers an invoice as GET shows it. */
async function fakeOwners() {
  const seen: { path: string; identity: boolean }[] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ path: req.url ?? '', identity: typeof req.headers[IDENTITY_HEADER] === 'string' });
    const m = /^\/invoice\/(\d+)$/.exec(req.url ?? '');
    if (m && Number(m[1]) < 900) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: Number(m[1]),
          invoice_id: Number(m[1]),
          status: 'PAID',
          invoice_format: 'XRECHNUNG',
          invoice_number: `RE-${m[1]}`,
        }),
      );
      return;
    }
    const inbound = /^\/inbound\/(\d+)$/.exec(req.url ?? '');
    if (inbound) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: Number(inbound[1]), status: 'RECEIVED', valid: true, format: 'xrechnung-ubl' }));
      return;
    }
    // GET /bank-statements/{id} is not there: the payload carries the event's own figures
    res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close: () => new Promise((r) => server.close(r)) };
}

describe('webhook-service', () => {
  const prefix = uniquePrefix('wh');
  let mongo: Awaited<ReturnType<typeof testMongo>>;
  let service: Awaited<ReturnType<typeof createWebhookService>>;
  let owners: Awaited<ReturnType<typeof fakeOwners>>;
  let receiver: Receiver;
  let peer: Bus<Messages>;
  let base = '';
  const company = `cmp_wh_${prefix.slice(3)}`;
  const call = serviceCaller(() => base, company);
  const other = serviceCaller(() => base, `${company}_other`);
  const audited: { type: string; data: unknown }[] = [];
  const mails: { data: { to: string[]; subject: string; emailId: string } }[] = [];

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
          WEBHOOK_RETRY_SCHEDULE_MS: '100,200,400,600,800',
          WEBHOOK_TIMEOUT_MS: '1500',
          WEBHOOK_DISABLE_AFTER_MS: '1000',
        }),
      ),
    );
    base = (await service.start()).url;
    peer = peerBus(prefix);
    peer.onEvent('audit-probe', ['webhook-endpoint.changed.v1'], async (msg) => void audited.push({ type: msg.type, data: msg.data }));
    peer.onCommand('mail.send.v1', async (msg) => void mails.push({ data: msg.data as (typeof mails)[number]['data'] }));
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

  const create = (body: Record<string, unknown>, as = call) => as('POST', '/webhook-endpoints/', body);
  const deliveriesOf = async (id: string) => (await call('GET', `/webhook-endpoints/${id}/deliveries`)).body.deliveries as any[];
  const verify = (secret: string, r: { body: string; headers: Record<string, unknown> }) =>
    new Webhook(secret).verify(r.body, {
      'webhook-id': String(r.headers['webhook-id']),
      'webhook-timestamp': String(r.headers['webhook-timestamp']),
      'webhook-signature': String(r.headers['webhook-signature']),
    });

  describe('endpoints', () => {
    it('creates an endpoint and shows its secret only in that answer; the database holds it only encrypted', async () => {
      const created = await create({ url: receiver.url('/crud'), event_types: ['invoice.finalized'], description: 'ERP' });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        url: receiver.url('/crud'),
        event_types: ['invoice.finalized'],
        enabled: true,
        disabled_reason: null,
      });
      expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(created.body.secret.slice(6), 'base64')).toHaveLength(32);
      const got = await call('GET', `/webhook-endpoints/${created.body.id}`);
      expect(got.status).toBe(200);
      expect(got.body.secret).toBeUndefined();
      expect(JSON.stringify((await call('GET', '/webhook-endpoints/')).body)).not.toContain(created.body.secret);
      const stored = JSON.stringify(await service.runtime.conn.collection('endpoints').find({}).toArray());
      expect(stored).not.toContain(created.body.secret);
      expect(stored).not.toContain(created.body.secret.slice(6));

      const updated = await call('PUT', `/webhook-endpoints/${created.body.id}`, { event_types: ['*'], description: null });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ event_types: ['*'], description: null, url: receiver.url('/crud') });
      expect((await call('DELETE', `/webhook-endpoints/${created.body.id}`)).status).toBe(200);
      expect((await call('GET', `/webhook-endpoints/${created.body.id}`)).status).toBe(404);
      await waitFor(() => audited.filter((a) => (a.data as { endpointId: string }).endpointId === created.body.id).length >= 3, {
        what: 'audit events',
      });
      expect(
        audited
          .filter((a) => (a.data as { endpointId: string }).endpointId === created.body.id)
          .map((a) => (a.data as { action: string }).action),
      ).toEqual(['created', 'updated', 'deleted']);
    });

    it('answers 400 for unknown fields, bad event types and URLs', async () => {
      const unknown = await create({ url: receiver.url(), event_types: ['*'], secret: 'mine' });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error_code).toBe('UNKNOWN_FIELD');
      const badType = await create({ url: receiver.url(), event_types: ['invoice.deleted'] });
      expect(badType.status).toBe(400);
      // the answer lists the valid event types
      expect(badType.body.errors).toEqual([
        {
          path: 'event_types.0',
          message: expect.stringMatching(
            /^must be one of "invoice\.created", "invoice\.finalized", .*"ping", "\*", not "invoice\.deleted"$/,
          ),
        },
      ]);
      expect((await create({ url: receiver.url(), event_types: [] })).status).toBe(400);
      expect((await create({ url: 'ftp://example.com/', event_types: ['*'] })).body.error_code).toBe('WEBHOOK_URL_NOT_ALLOWED');
      expect((await create({ url: `http://u:p@127.0.0.1:${receiver.port}/`, event_types: ['*'] })).body.error_code).toBe(
        'WEBHOOK_URL_NOT_ALLOWED',
      );
      expect((await create({ url: 'x'.repeat(3000), event_types: ['*'] })).status).toBe(400);
      // control characters and bidirectional overrides, as in every other name (the URL parser would drop a tab or
      // line feed silently: the stored URL would not be the one called)
      for (const bad of [
        { url: receiver.url(), event_types: ['*'], description: 'ERP \u202Eeldnah' },
        { url: receiver.url(), event_types: ['*'], description: 'line\r\nInjected: yes' },
        { url: `${receiver.url()}\u202E/x`, event_types: ['*'] },
        { url: `http://127.0.0.1:${receiver.port}/ho\tok`, event_types: ['*'] },
        { url: `http://127.0.0.1:${receiver.port}/ho\u0000ok`, event_types: ['*'] },
      ]) {
        const refused = await create(bad);
        expect(refused.status).toBe(400);
        expect(refused.body.errors?.[0]?.message ?? refused.body.detail).toMatch(/control characters or bidirectional overrides/);
      }
      const created = await create({ url: receiver.url(), event_types: ['*'] });
      const renamed = await call('PUT', `/webhook-endpoints/${created.body.id}`, { description: 'a\u2066b' });
      expect(renamed.status).toBe(400);
      const put = await call('PUT', `/webhook-endpoints/${created.body.id}`, { enabeld: false });
      expect(put.status).toBe(400);
      expect(put.body.error_code).toBe('UNKNOWN_FIELD');
      expect((await call('POST', `/webhook-endpoints/${created.body.id}/rotate-secret`, { force: true })).status).toBe(400);
      await call('DELETE', `/webhook-endpoints/${created.body.id}`);
    });

    it.each([
      'http://10.1.2.3/hook',
      'http://172.16.0.1/hook',
      'http://192.168.1.1/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://100.64.0.1/hook',
      'http://[fd00:ec2::254]/hook',
      'http://[fe80::1]/hook',
      'http://0.0.0.0/hook',
      'http://[::ffff:10.0.0.1]/hook',
      // IPv4-compatible IPv6 (the URL parser writes [::10.0.0.1] as [::a00:1]): judged by the IPv4 address inside
      'http://[::a00:1]/hook',
      'http://[::10.0.0.1]/hook',
      'http://[::169.254.169.254]/latest/meta-data/',
      'http://[::127.0.0.1]/hook',
      'http://[::ffff:a9fe:a9fe]/hook',
    ])('refuses %s at creation (400 WEBHOOK_URL_NOT_ALLOWED)', async (url) => {
      const res = await create({ url, event_types: ['*'] });
      expect(res.status).toBe(400);
      expect(res.body.error_code).toBe('WEBHOOK_URL_NOT_ALLOWED');
    });

    it("keeps companies apart: another company's endpoint is 404 on every route", async () => {
      const mine = await create({ url: receiver.url(), event_types: ['*'] });
      const id = mine.body.id;
      for (const [method, path, body] of [
        ['GET', `/webhook-endpoints/${id}`],
        ['PUT', `/webhook-endpoints/${id}`, { enabled: false }],
        ['DELETE', `/webhook-endpoints/${id}`],
        ['POST', `/webhook-endpoints/${id}/rotate-secret`],
        ['POST', `/webhook-endpoints/${id}/test`],
        ['GET', `/webhook-endpoints/${id}/deliveries`],
        ['POST', `/webhook-endpoints/${id}/replay`, { since: new Date().toISOString() }],
      ] as const)
        expect([method, path, (await other(method, path, body)).status]).toEqual([method, path, 404]);
      expect((await other('GET', '/webhook-endpoints/')).body.endpoints).toEqual([]);
      expect((await call('GET', `/webhook-endpoints/${id}`)).body.enabled).toBe(true);
      await call('DELETE', `/webhook-endpoints/${id}`);
    });

    it('needs webhooks:manage: a member is 403, an admin may', async () => {
      const as = (role: string) => async (method: string, path: string) =>
        (await fetch(`${base}${path}`, { method, headers: await identityHeaders(company, { role }) })).status;
      expect(await as('member')('GET', '/webhook-endpoints/')).toBe(403);
      expect(await as('viewer')('GET', '/webhook-endpoints/')).toBe(403);
      expect(await as('admin')('GET', '/webhook-endpoints/')).toBe(200);
    });

    it('allows 16 endpoints per company, also when created at once (409 WEBHOOK_ENDPOINT_LIMIT_REACHED)', async () => {
      const limited = serviceCaller(() => base, `${company}_limit`);
      const results = await Promise.all(
        Array.from({ length: 20 }, () => create({ url: receiver.url(), event_types: ['*'], enabled: false }, limited)),
      );
      expect(results.filter((r) => r.status === 201)).toHaveLength(16);
      const refused = results.filter((r) => r.status !== 201);
      expect(refused.map((r) => [r.status, r.body.error_code])).toEqual(Array(4).fill([409, 'WEBHOOK_ENDPOINT_LIMIT_REACHED']));
      expect((await limited('GET', '/webhook-endpoints/')).body.endpoints).toHaveLength(16);
    });
  });

  describe('delivery', () => {
    it('delivers a bus event signed by the Standard Webhooks scheme, with the resource as GET shows it, once per event', async () => {
      const path = '/signed';
      const ep = await create({ url: receiver.url(path), event_types: ['invoice.status_changed'] });
      const skipped = await create({ url: receiver.url('/other-types'), event_types: ['email.sent'] });
      const envelope = await peer.publishEvent('invoice.status-changed.v1', company, { invoiceId: 7, customerId: 1, status: 'PAID' });
      const got = await waitFor(() => receiver.received.find((r) => r.path === path), { what: 'delivery' });
      const payload = verify(ep.body.secret, got) as any;
      expect(payload).toMatchObject({
        type: 'invoice.status_changed',
        api_version: '2026-11-01',
        sequence: 1,
        data: { status: 'PAID', invoice: { id: 7, status: 'PAID', invoice_number: 'RE-7' } },
      });
      expect(payload.id).toMatch(/^evt_[0-9a-f]{24}$/);
      expect(got.headers['webhook-id']).toBe(payload.id);
      expect(owners.seen.find((s) => s.path === '/invoice/7')?.identity).toBe(true);
      // a redelivered bus event (same envelope id) sends nothing again
      await peer.publishEvent('invoice.status-changed.v1', company, { invoiceId: 7, customerId: 1, status: 'PAID' }, { id: envelope.id });
      await peer.publishEvent('invoice.status-changed.v1', company, { invoiceId: 7, customerId: 1, status: 'CANCELLED' });
      const second = await waitFor(() => receiver.received.filter((r) => r.path === path)[1], { what: 'second delivery' });
      expect((verify(ep.body.secret, second) as any).sequence).toBe(2);
      expect(receiver.received.filter((r) => r.path === path)).toHaveLength(2);
      expect(receiver.received.filter((r) => r.path === '/other-types')).toHaveLength(0);
      const log = await deliveriesOf(ep.body.id);
      expect(log[0]).toMatchObject({ status: 'delivered', attempts: 1, last_http_status: 204, event_type: 'invoice.status_changed' });
      expect(log[0].id).toMatch(/^wd_[0-9a-f]{24}$/);
      await call('DELETE', `/webhook-endpoints/${skipped.body.id}`);
      await call('DELETE', `/webhook-endpoints/${ep.body.id}`);
    });

    it('delivers payments, reminders, overdue invoices, imported bank statements and received e-invoices', async () => {
      const path = '/facts';
      const ep = await create({
        url: receiver.url(path),
        event_types: [
          'invoice.payment_recorded',
          'invoice.payment_reversed',
          'invoice.status_changed',
          'invoice.reminder_issued',
          'bank_statement.imported',
          'inbound_invoice.received',
        ],
      });
      const inv = { invoiceId: 61, customerId: 1, number: 'RE-61' };
      await peer.publishEvent('invoice.payment-recorded.v1', company, {
        ...inv,
        paymentId: 5,
        amount: '100.00',
        date: '2026-11-21',
        source: 'manual',
        openAmount: '19.00',
        paidInFull: false,
      });
      await peer.publishEvent('invoice.payment-reversed.v1', company, {
        ...inv,
        paymentId: 5,
        amount: '100.00',
        date: '2026-11-21',
        reversedAt: '2026-11-22T08:00:00.000Z',
        openAmount: '119.00',
      });
      await peer.publishEvent('invoice.overdue.v1', company, { ...inv, dueDate: '2026-11-25', openAmount: '119.00' });
      await peer.publishEvent('invoice.reminder-issued.v1', company, {
        ...inv,
        reminderId: 2,
        level: 1,
        date: '2026-12-01',
        fee: '0.00',
        interest: '0.00',
        openAmount: '119.00',
        emailed: true,
      });
      await peer.publishEvent('bank-statement.imported.v1', company, { statementId: 8, credits: 3, proposals: 2 });
      await peer.publishEvent('inbound.received.v1', company, { inboundId: 77, format: 'xrechnung-ubl', valid: true });
      const got = await waitFor(
        () => {
          const all = receiver.received.filter((r) => r.path === path);
          return all.length === 6 && all;
        },
        { what: 'six deliveries' },
      );
      const byType = Object.fromEntries(got.map((r) => verify(ep.body.secret, r) as any).map((p) => [p.type + (p.data.status ?? ''), p]));
      expect(byType['invoice.payment_recorded'].data).toEqual({
        invoice: expect.objectContaining({ id: 61 }),
        payment: { id: 5, amount: 100, discount: 0, date: '2026-11-21', method: null, reference: null, source: 'manual' },
        open_amount: 19,
        paid_in_full: false,
      });
      expect(byType['invoice.payment_reversed'].data).toMatchObject({
        payment: { id: 5, reversed_at: '2026-11-22T08:00:00.000Z' },
        open_amount: 119,
      });
      expect(byType['invoice.status_changedOVERDUE'].data).toEqual({ invoice: expect.objectContaining({ id: 61 }), status: 'OVERDUE' });
      expect(byType['invoice.reminder_issued'].data.reminder).toMatchObject({ id: 2, level: 1, emailed: true });
      expect(byType['bank_statement.imported'].data).toEqual({ bank_statement: null, statement_id: 8, credits: 3, proposals: 2 });
      expect(byType['inbound_invoice.received'].data).toEqual({
        inbound_invoice: { id: 77, status: 'RECEIVED', valid: true, format: 'xrechnung-ubl' },
      });
      // per resource, sequence grows: the invoice's four events are 1..4 in some order of arrival
      const invoiceSeqs = got
        .map((r) => JSON.parse(r.body))
        .filter((p) => p.data.invoice)
        .map((p) => p.sequence);
      expect([...invoiceSeqs].sort()).toEqual([1, 2, 3, 4]);
      expect(owners.seen.find((s) => s.path === '/inbound/77')?.identity).toBe(true);
      await call('DELETE', `/webhook-endpoints/${ep.body.id}`);
    });

    it('numbers the events of a resource without gaps or repeats when they arrive together (recorded in one transaction)', async () => {
      const path = '/together';
      const ep = await create({ url: receiver.url(path), event_types: ['invoice.status_changed'] });
      await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          peer.publishEvent('invoice.status-changed.v1', company, { invoiceId: i % 2 ? 71 : 72, customerId: 1, status: 'SENT' }),
        ),
      );
      const got = await waitFor(
        () => {
          const all = receiver.received.filter((r) => r.path === path);
          return all.length >= 12 && all;
        },
        { what: 'twelve deliveries' },
      );
      const payloads = got.map((r) => JSON.parse(r.body));
      for (const id of [71, 72])
        expect(
          payloads
            .filter((p) => p.data.invoice.id === id)
            .map((p) => p.sequence)
            .sort((a, b) => a - b),
        ).toEqual([1, 2, 3, 4, 5, 6]);
      expect(new Set(payloads.map((p) => p.id)).size).toBe(12);
      await call('DELETE', `/webhook-endpoints/${ep.body.id}`);
    });

    it("reads an event's resource once for all its endpoints, which get the same bytes", async () => {
      const eps = [];
      for (const n of [1, 2, 3]) eps.push(await create({ url: receiver.url(`/fan-${n}`), event_types: ['invoice.status_changed'] }));
      await peer.publishEvent('invoice.status-changed.v1', company, { invoiceId: 41, customerId: 1, status: 'SENT' });
      const got = await waitFor(
        () => {
          const all = receiver.received.filter((r) => r.path.startsWith('/fan-'));
          return all.length === 3 && all;
        },
        { what: 'three deliveries' },
      );
      expect(new Set(got.map((r) => r.body)).size).toBe(1);
      expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(1);
      expect(owners.seen.filter((s) => s.path === '/invoice/41')).toHaveLength(1);
      for (const ep of eps) await call('DELETE', `/webhook-endpoints/${ep.body.id}`);
    });

    it('retries failures by the schedule with the same webhook-id and body, and logs each attempt', async () => {
      const path = '/flaky';
      let calls = 0;
      receiver.setAnswer((r, res) => {
        if (r.path === path && ++calls <= 2) return void res.writeHead(503).end('busy '.repeat(400));
        res.writeHead(204).end();
      });
      const ep = await create({ url: receiver.url(path), event_types: ['*'] });
      await call('POST', `/webhook-endpoints/${ep.body.id}/test`);
      await waitFor(async () => (await deliveriesOf(ep.body.id))[0]?.status === 'delivered', { what: 'delivered after retries' });
      const hits = receiver.received.filter((r) => r.path === path);
      expect(hits).toHaveLength(3);
      expect(new Set(hits.map((h) => h.headers['webhook-id'])).size).toBe(1);
      expect(new Set(hits.map((h) => h.body)).size).toBe(1);
      const [delivery] = await deliveriesOf(ep.body.id);
      expect(delivery.attempts).toBe(3);
      expect(delivery.attempt_log.map((a: any) => a.http_status)).toEqual([503, 503, 204]);
      expect(Buffer.byteLength(delivery.attempt_log[0].response_excerpt)).toBeLessThanOrEqual(1024);
      expect(JSON.parse(hits[0]!.body).type).toBe('ping');
      receiver.setAnswer((_r, res) => void res.writeHead(204).end());
      await call('DELETE', `/webhook-endpoints/${ep.body.id}`);
    });

    it('does not follow a redirect (a failed attempt), and a 410 disables the endpoint', async () => {
      receiver.setAnswer((r, res) => {
        if (r.path === '/moved') return void res.writeHead(302, { location: receiver.url('/target') }).end();
        if (r.path === '/gone') return void res.writeHead(410).end('gone');
        res.writeHead(204).end();
      });
      const moved = await create({ url: receiver.url('/moved'), event_types: ['*'] });
      await call('POST', `/webhook-endpoints/${moved.body.id}/test`);
      await waitFor(async () => (await deliveriesOf(moved.body.id))[0]?.last_error === 'redirect_not_followed', {
        what: 'redirect attempt',
      });
      expect((await deliveriesOf(moved.body.id))[0]).toMatchObject({ status: 'pending', last_http_status: 302 });
      expect(receiver.received.filter((r) => r.path === '/target')).toHaveLength(0);
      await call('DELETE', `/webhook-endpoints/${moved.body.id}`);

      const gone = await create({ url: receiver.url('/gone'), event_types: ['*'] });
      await call('POST', `/webhook-endpoints/${gone.body.id}/test`);
      await waitFor(async () => (await call('GET', `/webhook-endpoints/${gone.body.id}`)).body.enabled === false, { what: 'disabled' });
      expect((await call('GET', `/webhook-endpoints/${gone.body.id}`)).body.disabled_reason).toBe('gone');
      expect((await deliveriesOf(gone.body.id))[0]).toMatchObject({ status: 'failed', attempts: 1, last_http_status: 410 });
      expect((await call('POST', `/webhook-endpoints/${gone.body.id}/test`)).status).toBe(409);
      receiver.setAnswer((_r, res) => void res.writeHead(204).end());
    });

    it('disables an endpoint failing continuously and mails the owners; replay re-queues the failed deliveries', async () => {
      receiver.setAnswer((r, res) => void res.writeHead(r.path === '/down' ? 500 : 204).end());
      const ep = await create({ url: receiver.url('/down'), event_types: ['*'] });
      await call('POST', `/webhook-endpoints/${ep.body.id}/test`);
      await waitFor(async () => (await call('GET', `/webhook-endpoints/${ep.body.id}`)).body.enabled === false, {
        what: 'disabled as failing',
      });
      expect((await call('GET', `/webhook-endpoints/${ep.body.id}`)).body.disabled_reason).toBe('failing');
      const mail = await waitFor(() => mails.find((m) => m.data.emailId.includes(ep.body.id)), { what: 'owner mail' });
      expect(mail.data.to).toEqual(['owner@firma.example']);
      expect(mail.data.subject).toMatch(/disabled/);

      receiver.setAnswer((_r, res) => void res.writeHead(204).end());
      expect((await call('PUT', `/webhook-endpoints/${ep.body.id}`, { enabled: true })).body).toMatchObject({
        enabled: true,
        disabled_reason: null,
      });
      const since = new Date(Date.now() - 60_000).toISOString();
      const replay = await call('POST', `/webhook-endpoints/${ep.body.id}/replay`, { since });
      expect(replay.body).toEqual({ requeued: 1, waiting_for_retry: 0, next_retry_at: null, message: '1 failed delivery queued again' });
      await waitFor(async () => (await deliveriesOf(ep.body.id))[0]?.status === 'delivered', { what: 'replayed' });
      const [delivery] = await deliveriesOf(ep.body.id);
      const retried = await call('POST', `/webhook-endpoints/${ep.body.id}/deliveries/${delivery.id}/retry`);
      expect(retried.status).toBe(202);
      await waitFor(async () => (await deliveriesOf(ep.body.id))[0]?.status === 'delivered', { what: 'retried' });
      expect((await call('POST', `/webhook-endpoints/${ep.body.id}/deliveries/wd_000000000000000000000000/retry`)).status).toBe(404);
      await call('DELETE', `/webhook-endpoints/${ep.body.id}`);
    });

    it("keeps a stuck endpoint to 4 deliveries in flight while another company's endpoint gets all of its own", async () => {
      let inFlight = 0;
      let most = 0;
      receiver.setAnswer((r, res) => {
        if (r.path !== '/stuck') return void res.writeHead(204).end();
        // held open: the sender gives up after its timeout (1.5 s here) and tries again later
        most = Math.max(most, ++inFlight);
        res.on('close', () => inFlight--);
      });
      const stuckCo = serviceCaller(() => base, `${company}_stuck`);
      const freeCo = serviceCaller(() => base, `${company}_free`);
      const stuck = await create({ url: receiver.url('/stuck'), event_types: ['*'] }, stuckCo);
      await create({ url: receiver.url('/free'), event_types: ['*'] }, freeCo);
      for (let i = 1; i <= 10; i++) {
        await peer.publishEvent('invoice.status-changed.v1', `${company}_stuck`, { invoiceId: i, customerId: 1, status: 'PAID' });
        await peer.publishEvent('invoice.status-changed.v1', `${company}_free`, { invoiceId: i, customerId: 1, status: 'PAID' });
      }
      await waitFor(() => receiver.received.filter((r) => r.path === '/free').length === 10, { what: 'the free endpoint served' });
      await waitFor(() => most === 4, { what: 'the stuck endpoint at its limit' });
      expect(most).toBe(4);
      receiver.setAnswer((_r, res) => void res.writeHead(204).end());
      await stuckCo('DELETE', `/webhook-endpoints/${stuck.body.id}`);
    });

    it('signs with the old and the new secret for 24 h after a rotation', async () => {
      const ep = await create({ url: receiver.url('/rotate'), event_types: ['*'] });
      const rotated = await call('POST', `/webhook-endpoints/${ep.body.id}/rotate-secret`);
      expect(rotated.status).toBe(200);
      expect(rotated.body.secret).not.toBe(ep.body.secret);
      expect(new Date(rotated.body.previous_secret_expires_at).getTime() - Date.now()).toBeGreaterThan(23.9 * 3600_000);
      expect((await call('GET', `/webhook-endpoints/${ep.body.id}`)).body.secret_rotated_at).not.toBeNull();
      await call('POST', `/webhook-endpoints/${ep.body.id}/test`);
      const got = await waitFor(() => receiver.received.find((r) => r.path === '/rotate'), { what: 'rotated delivery' });
      expect(String(got.headers['webhook-signature']).split(' ')).toHaveLength(2);
      expect(verify(ep.body.secret, got)).toMatchObject({ type: 'ping' });
      expect(verify(rotated.body.secret, got)).toMatchObject({ type: 'ping' });
      // a second rotation ends the first secret's overlap
      const again = await call('POST', `/webhook-endpoints/${ep.body.id}/rotate-secret`);
      await call('POST', `/webhook-endpoints/${ep.body.id}/test`);
      const later = await waitFor(() => receiver.received.filter((r) => r.path === '/rotate')[1], { what: 'second rotated delivery' });
      expect(() => verify(ep.body.secret, later)).toThrow();
      expect(verify(rotated.body.secret, later)).toMatchObject({ type: 'ping' });
      expect(verify(again.body.secret, later)).toMatchObject({ type: 'ping' });
      await call('DELETE', `/webhook-endpoints/${ep.body.id}`);
    });
  });
});
