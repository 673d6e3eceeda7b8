import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { liveCompanyOf, type CompanyId } from '@inv/contracts';
import { createObjectStore } from '@inv/objects';
import { waitFor } from '@inv/testing';
import { apiClient, startSystem, type System } from '../support/system';

jest.setTimeout(300_000);

/**
 * Test mode through the gateway, each service its own process (docs/test-mode.md): a test key works on the company's
 * test twin; the two never see each other's objects; test finalizations do not count, take their own numbers and
 * carry a TEST mark; the live profile is read, not written; webhook endpoints of either key get their own company's
 * events only; DELETE /test-data is for test keys.
 */
describe('e2e: test mode', () => {
  let system: System;
  let testKey: string;
  /** The object key of the test invoice's PDF (in `test~<company>/`), for the reset to remove. */
  let testPdfKey = '';
  const api = apiClient(
    () => system.base,
    () => system.apiKey,
  );
  const asTest = (method: string, path: string, body?: unknown) => api(method, path, body, testKey);

  beforeAll(async () => {
    system = await startSystem({
      kind: 'testmode',
      services: ['account', 'quota', 'gateway', 'customer', 'invoice', 'document', 'webhook'],
      env: { LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn', WEBHOOKS_ALLOW_LOOPBACK: 'true' },
      stdio: process.env.TEST_LOG_LEVEL ? 'inherit' : 'ignore',
    });
  });
  afterAll(async () => {
    await system?.stop();
  });

  const newCustomer = async (call: typeof asTest, name: string) => {
    const customer = await call('POST', '/customer/', {
      organization_name: name,
      email: 'ap@example.com',
      contact_type: 'B2B',
      language: 'German',
      vat_id: null,
      is_active: true,
    });
    expect(customer.status).toBe(201);
    const address = await call('POST', `/customer/${customer.body.id}/addresses`, {
      address_line_1: 'Hauptstraße 5',
      city: 'München',
      postal_code: '80331',
      country_code: 'DE',
      is_default: true,
    });
    expect(address.status).toBe(201);
    return customer.body.id as number;
  };
  const newInvoice = async (call: typeof asTest, customerId: number) => {
    const invoice = await call('POST', '/invoice/', { customer_id: customerId, invoice_format: 'ZUGFERD' });
    expect(invoice.status).toBe(201);
    const id = invoice.body.invoice_id as number;
    const position = await call('POST', `/invoice/${id}/positions`, {
      title: 'Beratung',
      quantity: 1,
      unit_id: 'HUR',
      unit_net_amount: 100,
      single_net_amount: 100,
      tax_rate: 0.19,
    });
    expect(position.status).toBe(201);
    return id;
  };

  it('creates an ak_test_ key with a live key, listed with its mode', async () => {
    const created = await api('POST', '/company/api-keys', { name: 'sandbox', mode: 'test' });
    expect(created.status).toBe(201);
    testKey = created.body.key;
    expect(testKey).toMatch(/^ak_test_[0-9a-f]{32}$/);
    const listed = await api('GET', '/company/api-keys');
    expect(listed.body.api_keys.find((k: { name: string }) => k.name === 'sandbox')).toMatchObject({ mode: 'test' });
    expect((await api('POST', '/company/api-keys', { name: 'x', mode: 'prod' })).status).toBe(400);
  });

  it("reads the live company's profile with a test key and cannot change it", async () => {
    const live = await api('GET', '/company/');
    expect((await asTest('GET', '/company/')).body.name).toBe(live.body.name);
    const refused = await asTest('PUT', '/company/', { name: 'Changed in test mode' });
    expect(refused).toMatchObject({ status: 403, body: { error_code: 'TEST_MODE_READ_ONLY' } });
    expect((await asTest('POST', '/company/api-keys', { name: 'escalate' })).status).toBe(403);
  });

  it('keeps customers apart in both directions', async () => {
    const testCustomer = await newCustomer(asTest, 'Nur-Test GmbH');
    const liveCustomer = await newCustomer(api, 'Nur-Live GmbH');
    const names = async (call: typeof asTest) =>
      ((await call('GET', '/customer/?limit=100')).body as { organization_name: string }[]).map((c) => c.organization_name);
    expect(await names(asTest)).toContain('Nur-Test GmbH');
    expect(await names(asTest)).not.toContain('Nur-Live GmbH');
    expect(await names(api)).toContain('Nur-Live GmbH');
    expect(await names(api)).not.toContain('Nur-Test GmbH');
    const seenByLive = await api('GET', `/customer/${testCustomer}`);
    expect(seenByLive.status === 404 || seenByLive.body.organization_name !== 'Nur-Test GmbH').toBe(true);
    const seenByTest = await asTest('GET', `/customer/${liveCustomer}`);
    expect(seenByTest.status === 404 || seenByTest.body.organization_name !== 'Nur-Live GmbH').toBe(true);
  });

  it("delivers the twin's events to endpoints of a test key only: a live endpoint gets none, and each key's endpoint is 404 to the other", async () => {
    const got: { path: string; body: string }[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => (got.push({ path: req.url ?? '', body: Buffer.concat(chunks).toString('utf8') }), res.writeHead(204).end()));
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      const url = (path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
      const liveEp = await api('POST', '/webhook-endpoints/', { url: url('/live'), event_types: ['*'] });
      const testEp = await asTest('POST', '/webhook-endpoints/', { url: url('/test'), event_types: ['*'] });
      expect([liveEp.status, testEp.status]).toEqual([201, 201]);
      type Payload = { id: string; type: string; data: { invoice?: { id: number } } };
      const payloads = (path: string) => got.filter((g) => g.path === path).map((g) => JSON.parse(g.body) as Payload);
      const created = (path: string) => payloads(path).filter((p) => p.type === 'invoice.created');

      // test-mode activity: the test endpoint hears of it
      const testInvoice = await newInvoice(asTest, await newCustomer(asTest, 'Webhook Test GmbH'));
      await waitFor(() => created('/test').some((p) => p.data.invoice?.id === testInvoice), {
        what: 'the test invoice at the test endpoint',
      });
      // then live activity: the live endpoint hears of it, and of nothing before it
      const liveInvoice = await newInvoice(api, await newCustomer(api, 'Webhook Live AG'));
      await waitFor(() => created('/live').length > 0, { what: 'the live invoice at the live endpoint' });
      expect(created('/live').map((p) => p.data.invoice?.id)).toEqual([liveInvoice]);
      expect(created('/test').map((p) => p.data.invoice?.id)).toEqual([testInvoice]);

      // the live endpoint read with the live key after the test-mode activity: no test event in its log
      const testEventIds = new Set(payloads('/test').map((p) => p.id));
      const liveLog = await api('GET', `/webhook-endpoints/${liveEp.body.id}/deliveries`);
      expect(liveLog.status).toBe(200);
      const liveEventIds = (liveLog.body.deliveries as { event_id: string }[]).map((d) => d.event_id);
      expect(liveEventIds.length).toBeGreaterThan(0);
      expect(liveEventIds.filter((id) => testEventIds.has(id))).toEqual([]);
      expect(payloads('/live').filter((p) => testEventIds.has(p.id))).toEqual([]);

      // each key lists its own endpoint only, and the other's is 404 as if it did not exist
      const ids = async (call: typeof asTest) =>
        ((await call('GET', '/webhook-endpoints/')).body.endpoints as { id: string }[]).map((e) => e.id);
      expect(await ids(api)).toEqual([liveEp.body.id]);
      expect(await ids(asTest)).toEqual([testEp.body.id]);
      const missing = await asTest('GET', '/webhook-endpoints/we_000000000000000000000000');
      expect(missing.status).toBe(404);
      for (const [call, id] of [
        [asTest, liveEp.body.id],
        [api, testEp.body.id],
      ] as const) {
        for (const [method, path, body] of [
          ['GET', `/webhook-endpoints/${id}`],
          ['GET', `/webhook-endpoints/${id}/deliveries`],
          ['PUT', `/webhook-endpoints/${id}`, { enabled: false }],
          ['DELETE', `/webhook-endpoints/${id}`],
        ] as const) {
          const res = await call(method, path, body);
          expect([method, path, res.status, res.body?.error_code]).toEqual([method, path, 404, missing.body?.error_code]);
        }
      }
      expect((await api('GET', `/webhook-endpoints/${liveEp.body.id}`)).body.enabled).toBe(true);
      expect((await asTest('GET', `/webhook-endpoints/${testEp.body.id}`)).body.enabled).toBe(true);
      expect((await api('DELETE', `/webhook-endpoints/${liveEp.body.id}`)).status).toBe(200);
      expect((await asTest('DELETE', `/webhook-endpoints/${testEp.body.id}`)).status).toBe(200);
    } finally {
      server.closeAllConnections();
      await new Promise((ok) => server.close(ok));
    }
  });

  it('finalizes a test invoice without counting, with numbers of its own and a TEST mark, invisible to the live key', async () => {
    await waitFor(async () => (await api('GET', '/quota/')).body?.plan === 'pro', { what: 'quota-service knows the plan' });
    const usedBefore = (await api('GET', '/quota/')).body.used as number;
    const liveCustomer = await newCustomer(api, 'Live Nummern AG');
    const liveFirst = await newInvoice(api, liveCustomer);
    const liveNumberOf = async (id: number) => (await api('GET', `/invoice/${id}`)).body.invoice_number as string;

    const testCustomer = await newCustomer(asTest, 'Test Nummern AG');
    const testId = await newInvoice(asTest, testCustomer);
    const job = await asTest('POST', `/invoice/${testId}/job`, { task: 'process_invoice_flag_invoice_send_job' });
    expect(job.status).toBe(201);
    await waitFor(
      async () => {
        const j = (await asTest('GET', `/invoice/${testId}/job/${job.body.job_id}`)).body;
        if (j.status === 'failed') throw new Error(`job failed: ${j.error_message}`);
        return j.status === 'finished';
      },
      { timeoutMs: 90_000, what: 'test finalize job' },
    );
    expect((await asTest('GET', `/invoice/${testId}`)).body.status).toBe('OPEN');
    expect((await api('GET', '/quota/')).body.used).toBe(usedBefore);

    // the live sequence goes on where it was: the test invoice took no live number
    const liveSecond = await newInvoice(api, liveCustomer);
    const [a, b] = [await liveNumberOf(liveFirst), await liveNumberOf(liveSecond)];
    const tail = (n: string) => Number(/(\d+)$/.exec(n)?.[1]);
    if (a && b) expect(tail(b)).toBe(tail(a) + 1);

    // the live key does not see the test invoice
    const liveView = await api('GET', `/invoice/${testId}`);
    expect(liveView.status === 404 || liveView.body.customer_id !== testCustomer || liveView.body.status !== 'OPEN').toBe(true);

    // its PDF is marked TEST
    const link = await asTest('GET', `/invoice/${testId}/pdf-link`);
    expect(link.status).toBe(200);
    // path-style link: /<bucket>/<key>
    testPdfKey = decodeURIComponent(new URL(link.body.url).pathname.split('/').slice(2).join('/'));
    expect(testPdfKey).toMatch(/^test~cmp_[a-z0-9_]+\/invoices\//);
    const pdf = Buffer.from(await (await fetch(link.body.url)).arrayBuffer());
    if (spawnSync('sh', ['-c', 'command -v pdftotext']).status === 0) {
      const dir = mkdtempSync(join(tmpdir(), 'e2e-test-mode-'));
      try {
        writeFileSync(join(dir, 'a.pdf'), pdf);
        expect(execFileSync('pdftotext', [join(dir, 'a.pdf'), '-'], { encoding: 'utf8' })).toContain('TEST');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    const xml = await asTest('GET', `/invoice/${testId}/xml-link`);
    // the customer is German, so is the invoice and its TEST note (BT-22)
    expect(await (await fetch(xml.body.url)).text()).toContain('TEST – im Testmodus erstellt, keine gültige Rechnung');
  });

  it("resets test data with a test key only; the twin's stored files go, the live company's stay", async () => {
    const objects = createObjectStore({
      endpoint: system.env.S3_ENDPOINT!,
      accessKey: system.env.S3_ACCESS_KEY!,
      secretKey: system.env.S3_SECRET_KEY!,
      bucket: system.env.S3_BUCKET ?? 'invoicing-documents',
      presignTtlSeconds: 60,
    });
    expect(testPdfKey).not.toBe('');
    expect(await objects.exists(testPdfKey)).toBe(true);
    const twin = testPdfKey.split('/')[0]!;
    const live = liveCompanyOf(twin as CompanyId);
    // the live company's files, and a twin's whose id merely starts alike
    const kept = [`${live}/invoices/999/keep.pdf`, `${twin}_other/invoices/1/keep.pdf`];
    for (const key of kept) await objects.put(key, Buffer.from('%PDF-1.7 keep'), 'application/pdf');

    expect((await api('DELETE', '/test-data')).status).toBe(403);
    expect(await objects.exists(testPdfKey)).toBe(true);
    const reset = await asTest('DELETE', '/test-data');
    expect(reset.status).toBe(200);
    expect((await api('GET', '/company/')).status).toBe(200);
    await waitFor(async () => !(await objects.exists(testPdfKey)), { what: "the reset to remove the twin's files" });
    for (const key of kept) expect(await objects.exists(key)).toBe(true);
  });

  it("removes the twin's data in every service and keeps the live data; the audit log records the reset", async () => {
    const testCustomer = await newCustomer(asTest, 'Weg-damit GmbH');
    const testInvoice = await newInvoice(asTest, testCustomer);
    const liveCustomer = await newCustomer(api, 'Bleibt AG');
    const liveInvoice = await newInvoice(api, liveCustomer);
    expect((await asTest('DELETE', '/test-data')).status).toBe(200);
    // customer- and invoice-service delete on the announcement, shortly after the answer
    await waitFor(
      async () =>
        (await asTest('GET', `/customer/${testCustomer}`)).status === 404 &&
        (await asTest('GET', `/invoice/${testInvoice}`)).status === 404,
      { what: 'the reset to reach customer- and invoice-service' },
    );
    expect((await asTest('GET', '/customer/?limit=100')).body).toEqual([]);
    expect((await api('GET', `/customer/${liveCustomer}`)).status).toBe(200);
    expect((await api('GET', `/invoice/${liveInvoice}`)).status).toBe(200);
    // the twin's numbering starts again: its next customer is number 1
    expect(await newCustomer(asTest, 'Neu GmbH')).toBe(1);
    const entries = await waitFor(
      async () => {
        const log = await asTest('GET', '/audit-log/');
        const found = (log.body?.entries ?? []).filter((e: { action: string }) => e.action === 'test_data.reset');
        return found.length ? found : undefined;
      },
      { what: 'the audit log to record the reset' },
    );
    expect(entries[0]).toMatchObject({ action: 'test_data.reset' });
  });
});
