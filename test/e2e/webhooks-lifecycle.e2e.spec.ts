import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { Webhook } from 'standardwebhooks';
import type { Bus } from '@inv/bus';
import { WEBHOOK_API_VERSION, type Messages } from '@inv/contracts';
import { peerBus, waitFor } from '@inv/testing';
import { apiClient, startSystem, type System } from '../support/system';

jest.setTimeout(300_000);

// Payloads are inspected loosely.
type Json = Record<string, any>;

interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
  answered: number;
}

/** A local integrator: records every POST and answers `answer` (changed by the test to break and restore it). */
async function startReceiver() {
  const got: Delivery[] = [];
  const state = { answer: 204 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answered = state.answer;
      got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), answered });
      res.writeHead(answered, { 'content-type': 'text/plain' }).end(answered >= 300 ? 'receiver broken on purpose' : '');
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    got,
    state,
    close: () => new Promise<void>((ok) => (server.closeAllConnections(), server.close(() => ok()))),
  };
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Every delivery checked with the independent `standardwebhooks` library; throws on a bad signature. */
function verified(secret: string, d: Delivery): Json {
  return new Webhook(secret).verify(d.body, {
    'webhook-id': String(d.headers['webhook-id']),
    'webhook-timestamp': String(d.headers['webhook-timestamp']),
    'webhook-signature': String(d.headers['webhook-signature']),
  }) as Json;
}

/** The invoice fields that a later change cannot alter, as the public GET showed them at that moment. */
const fixedFields = (inv: Json) => ({
  id: inv.id,
  invoice_number: inv.invoice_number,
  customer_id: inv.customer_id,
  document_type: inv.document_type,
  net_amount: inv.net_amount,
  tax_amount: inv.tax_amount,
  gross_amount: inv.gross_amount,
});
const LIFECYCLE = ['DRAFT', 'OPEN', 'SENT', 'PAID'];
/**
 * The snapshot is taken when the event's first delivery is prepared (the contract's WEBHOOK_PAYLOADS), so a change
 * made right after the event may already be in it: the status shown is the one at the time or a later one, never
 * an earlier one.
 */
const statusAtOrAfter = (shown: string, then: string) => LIFECYCLE.indexOf(shown) >= LIFECYCLE.indexOf(then);

/**
 * The invoice lifecycle through the real services (each its own process) and the public API, as an integrator with a
 * webhook endpoint for `*` sees it: every delivery signed (checked with `standardwebhooks`), `webhook-id` = payload
 * `id`, `data` the resource as its GET showed it then, `sequence` growing per invoice; a failed delivery arrives on
 * retry with the same id; another company's endpoint gets none of it.
 */
describe('e2e: webhooks over the whole invoice lifecycle', () => {
  let system: System;
  let peer: Bus<Messages>;
  let receiver: Receiver;
  let otherReceiver: Receiver;
  let secret = '';
  let otherSecret = '';
  let endpointId = '';
  let otherEndpointId = '';
  const otherKey = `ak_live_${randomBytes(16).toString('hex')}`;
  const api = apiClient(
    () => system.base,
    () => system.apiKey,
  );
  const smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData: (s, _x, cb) => (s.resume(), s.on('end', () => cb())),
  });

  beforeAll(async () => {
    receiver = await startReceiver();
    otherReceiver = await startReceiver();
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
    const smtpPort = (smtp as unknown as { server: { address(): AddressInfo } }).server.address().port;
    system = await startSystem({
      kind: 'e2e-whlc',
      services: ['account', 'customer', 'invoice', 'document', 'vat', 'export', 'quota', 'webhook', 'gateway'],
      env: {
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        WEBHOOKS_ALLOW_LOOPBACK: 'true',
        WEBHOOK_RETRY_SCHEDULE_MS: '200,500,1000',
        LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
      },
      stdio: process.env.TEST_LOG_LEVEL ? 'inherit' : 'ignore',
    });
    peer = peerBus(system.prefix);
    await peer.start();
    await peer.callRpc('account.create-company.v1', `cmp_other_${Date.now().toString(16)}`, {
      name: 'Andere GmbH',
      ownerEmail: 'owner@andere.example',
      plan: 'pro',
      apiKey: otherKey,
    });
    await waitFor(async () => (await api('GET', '/company/', undefined, otherKey)).status === 200, { what: "the other company's key" });
  });
  afterAll(async () => {
    await peer?.stop();
    await system?.stop();
    await receiver?.close();
    await otherReceiver?.close();
    await new Promise<void>((r) => smtp.close(() => r()));
  });

  /** The verified payloads the demo company's receiver got (the first arrival of each event id), in arrival order. */
  const events = () => {
    const seen = new Map<string, Json>();
    for (const d of receiver.got) {
      if (d.answered >= 300) continue;
      const p = verified(secret, d);
      expect(d.headers['webhook-id']).toBe(p.id);
      if (!seen.has(p.id)) seen.set(p.id, p);
    }
    return [...seen.values()];
  };
  const find = (type: string, pred: (p: Json) => boolean = () => true) => events().find((p) => p.type === type && pred(p));
  const arrived = (type: string, pred?: (p: Json) => boolean) =>
    waitFor(() => find(type, pred), { timeoutMs: 60_000, intervalMs: 100, what: `webhook ${type}` });

  const finalize = async (id: number) => {
    const job = await api('POST', `/invoice/${id}/job`, { task: 'process_invoice_flag_invoice_send_job' });
    expect(job.status).toBe(201);
    await waitFor(
      async () => {
        const j = (await api('GET', `/invoice/${id}/job/${job.body.job_id}?wait=5`)).body;
        if (j.status === 'failed') throw new Error(`finalization failed: ${JSON.stringify(j)}`);
        return j.status === 'finished';
      },
      { timeoutMs: 60_000, what: `finalization of ${id}` },
    );
    return (await api('GET', `/invoice/${id}`)).body;
  };

  const at: Record<string, Json> = {};
  let invoiceId = 0;
  let creditId = 0;
  let customerId = 0;
  let cancelledId = 0;

  it('registers an endpoint for every event (and another company one of its own)', async () => {
    const created = await api('POST', '/webhook-endpoints/', { url: receiver.url, event_types: ['*'], description: 'ERP' });
    expect(created.status).toBe(201);
    ({ id: endpointId, secret } = created.body as { id: string; secret: string });
    const other = await api('POST', '/webhook-endpoints/', { url: otherReceiver.url, event_types: ['*'] }, otherKey);
    expect(other.status).toBe(201);
    ({ id: otherEndpointId, secret: otherSecret } = other.body as { id: string; secret: string });
  });

  it('drives the lifecycle through the gateway', async () => {
    const customer = await api('POST', '/customer/', {
      organization_name: 'Bundesamt für Beispiele',
      vat_id: 'DE 143 454 214',
      email: 'rechnung@bund.example',
      contact_type: 'B2B',
      language: 'German',
    });
    expect(customer.status).toBe(201);
    customerId = customer.body.id;
    expect(
      (
        await api('POST', `/customer/${customerId}/addresses`, {
          address_line_1: 'Platz der Republik 1',
          city: 'Berlin',
          postal_code: '11011',
          country_code: 'DE',
          is_default: true,
        })
      ).status,
    ).toBe(201);
    at.customer = await waitFor(
      async () => {
        const c = (await api('GET', `/customer/${customerId}`)).body;
        return c.vat_check?.status === 'valid' && c;
      },
      { what: 'VAT check (simulated VIES)' },
    );

    const invoice = await api('POST', '/invoice/', { customer_id: customerId, invoice_format: 'ZUGFERD' });
    expect(invoice.status).toBe(201);
    invoiceId = invoice.body.invoice_id;
    at.created = (await api('GET', `/invoice/${invoiceId}`)).body;
    for (const line of [
      { title: 'Beratung', quantity: 7.5, unit_id: 'HUR', unit_net_amount: 95, tax_rate: 0.19 },
      { title: 'Fachbuch', quantity: 1, unit_id: 'C62', unit_net_amount: 39.9, tax_rate: 0.07, tax_treatment_id: 'reduced' },
    ])
      expect((await api('POST', `/invoice/${invoiceId}/positions`, line)).status).toBe(201);

    at.finalized = await finalize(invoiceId);
    expect(at.finalized.status).toBe('OPEN');
    expect((await api('PUT', `/invoice/${invoiceId}/status`, { status: 'SENT' })).status).toBe(200);
    at.sent = (await api('GET', `/invoice/${invoiceId}`)).body;
    const paid = await api('PUT', `/invoice/${invoiceId}/status`, {
      status: 'PAID',
      paid_date: new Date().toISOString().slice(0, 10),
      payment_method: 'BANK_TRANSFER',
    });
    expect(paid.status).toBe(200);
    at.paid = (await api('GET', `/invoice/${invoiceId}`)).body;

    const credit = await api('POST', `/invoice/${invoiceId}/credit-note`);
    expect(credit.status).toBe(201);
    creditId = credit.body.invoice_id;
    at.credit = await finalize(creditId);
    expect(at.credit).toMatchObject({ document_type: 'CREDIT_NOTE', status: 'OPEN' });

    cancelledId = (await api('POST', '/invoice/', { customer_id: customerId })).body.invoice_id;
    expect((await api('POST', `/invoice/${cancelledId}/cancel`)).status).toBe(200);

    expect((await api('POST', `/invoice/${invoiceId}/send_email`, { to: 'rechnung@bund.example' })).status).toBe(202);
    at.email = await waitFor(
      async () => {
        const e = (await api('GET', `/invoice/${invoiceId}/emails`)).body.emails[0];
        return e?.status === 'sent' && e;
      },
      { timeoutMs: 60_000, what: 'the e-mail' },
    );

    expect(
      (
        await api('PUT', '/datev/config', {
          consultant_number: 29098,
          client_number: 55003,
          chart_of_accounts: 'SKR03',
          fiscal_year_start_month: 1,
        })
      ).status,
    ).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    const start = await api('POST', '/exports/job', {
      task: 'process_datev_export_job',
      start_date: `${today.slice(0, 4)}-01-01`,
      end_date: today,
      include_master_data: true,
      include_documents: true,
      only_new: false,
    });
    expect(start.status).toBe(201);
    at.export = await waitFor(
      async () => {
        const j = (await api('GET', `/exports/job/${start.body.job_id}`)).body;
        if (j.status === 'failed') throw new Error(`export failed: ${j.error_message}`);
        return j.status === 'finished' && j;
      },
      { timeoutMs: 60_000, intervalMs: 200, what: 'export job' },
    );
  });

  it('delivers every event signed, with the resource as GET showed it then', async () => {
    const onInvoice = (id: number) => (p: Json) => p.data?.invoice?.id === id;
    const created = await arrived('invoice.created', onInvoice(invoiceId));
    const finalized = await arrived('invoice.finalized', onInvoice(invoiceId));
    const sent = await arrived('invoice.status_changed', (p) => onInvoice(invoiceId)(p) && p.data.status === 'SENT');
    const paid = await arrived('invoice.status_changed', (p) => onInvoice(invoiceId)(p) && p.data.status === 'PAID');
    const credit = await arrived('credit_note.finalized', onInvoice(creditId));
    const vat = await arrived('customer.vat_checked', (p) => p.data?.customer?.id === customerId);
    const email = await arrived('email.sent', (p) => p.data?.email?.id === at.email.id);
    const exported = await arrived('export.finished', (p) => p.data?.export?.id === at.export.id);

    const cancelled = await arrived('invoice.status_changed', (p) => onInvoice(cancelledId)(p) && p.data.status === 'CANCELLED');
    for (const p of [created, finalized, sent, paid, credit, vat, email, exported, cancelled]) {
      expect(p).toMatchObject({ id: expect.stringMatching(/^evt_/), api_version: WEBHOOK_API_VERSION, created_at: expect.any(String) });
      expect(Number.isInteger(p.sequence)).toBe(true);
    }
    // the draft as created (its positions came after: only what a later edit cannot change)
    expect(created.data.invoice).toMatchObject({
      id: invoiceId,
      invoice_number: at.created.invoice_number,
      customer_id: customerId,
      document_type: 'INVOICE',
      status: 'DRAFT',
    });
    expect(fixedFields(finalized.data.invoice)).toEqual(fixedFields(at.finalized));
    expect(finalized.data).toMatchObject({ pdf_available: true, xml_available: true });
    expect(fixedFields(sent.data.invoice)).toEqual(fixedFields(at.sent));
    expect(sent.data.status).toBe('SENT');
    expect(fixedFields(paid.data.invoice)).toEqual(fixedFields(at.paid));
    expect(paid.data.status).toBe('PAID');
    expect(paid.data.invoice).toMatchObject({ status: 'PAID', paid_date: at.paid.paid_date, payment_method: 'BANK_TRANSFER' });
    for (const [p, then] of [
      [finalized, 'OPEN'],
      [sent, 'SENT'],
    ] as const)
      expect({ type: p.type, status: p.data.invoice.status, atOrAfter: statusAtOrAfter(p.data.invoice.status, then) }).toMatchObject({
        atOrAfter: true,
      });
    expect(fixedFields(credit.data.invoice)).toEqual(fixedFields(at.credit));
    expect(credit.data.invoice.status).toBe('OPEN');
    expect(credit.data.invoice.preceding_invoice_id).toBe(invoiceId);
    expect(vat.data.customer).toMatchObject({ id: customerId, vat_id: at.customer.vat_id, vat_check: { status: 'valid' } });
    expect(email.data).toMatchObject({ invoice_id: invoiceId, email: { id: at.email.id, status: 'sent', to: ['rechnung@bund.example'] } });
    expect(exported.data.export).toMatchObject({ id: at.export.id, status: 'finished', result: at.export.result });

    // one invoice's events in the order they happened
    expect([created, finalized, sent, paid].map((p) => p.sequence)).toEqual([1, 2, 3, 4]);
    // a credit note is announced when it is created, like any draft, and finalized after
    const creditCreated = await arrived('invoice.created', onInvoice(creditId));
    expect(creditCreated.data.invoice).toMatchObject({ id: creditId, document_type: 'CREDIT_NOTE', preceding_invoice_id: invoiceId });
    expect([creditCreated.sequence, credit.sequence]).toEqual([1, 2]);
    expect(cancelled.data.invoice).toMatchObject({ id: cancelledId, status: 'CANCELLED' });
    expect(cancelled.sequence).toBe(2); // after its invoice.created
    // no event twice, none of the other company's
    const ids = events().map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('retries a delivery the receiver refused with the same webhook-id until it is accepted', async () => {
    receiver.state.answer = 500;
    const before = receiver.got.length;
    const draft = await api('POST', '/invoice/', { customer_id: customerId, invoice_format: 'ZUGFERD' });
    expect(draft.status).toBe(201);
    const id = draft.body.invoice_id as number;
    const failed = await waitFor(
      () =>
        receiver.got
          .slice(before)
          .filter((d) => d.answered === 500)
          .map((d) => ({ d, p: verified(secret, d) }))
          .find(({ p }) => p.type === 'invoice.created' && p.data.invoice?.id === id),
      { timeoutMs: 60_000, what: 'the refused attempt' },
    );
    receiver.state.answer = 204;
    const accepted = await waitFor(
      () => receiver.got.slice(before).find((d) => d.answered === 204 && d.headers['webhook-id'] === failed.p.id),
      { timeoutMs: 60_000, what: 'the retried delivery' },
    );
    expect(accepted.body).toBe(failed.d.body); // the same bytes
    expect(verified(secret, accepted)).toEqual(failed.p);
    const log = await waitFor(
      async () => {
        const page = (await api('GET', `/webhook-endpoints/${endpointId}/deliveries?limit=100`)).body;
        return (page.deliveries as Json[]).find((x) => x.event_id === failed.p.id && x.status === 'delivered');
      },
      { what: 'the delivery log' },
    );
    expect(log.attempts).toBeGreaterThanOrEqual(2);
    expect(log.attempt_log[0]).toMatchObject({ http_status: 500 });
  });

  it("gives another company's endpoint none of these events, though its invoice ids are the same numbers", async () => {
    // its endpoint works: a test event reaches it
    expect((await api('POST', `/webhook-endpoints/${otherEndpointId}/test`, undefined, otherKey)).status).toBeLessThan(300);
    await waitFor(() => otherReceiver.got.length > 0, { what: "the other company's ping" });
    const demoBefore = receiver.got.length;
    // its own first invoice (ids are per company: the same number as the demo company's first)
    const customer = await api(
      'POST',
      '/customer/',
      { organization_name: 'Kunde der Anderen', contact_type: 'B2B', email: 'ap@kunde.example' },
      otherKey,
    );
    expect(customer.status).toBe(201);
    const own = await api('POST', '/invoice/', { customer_id: customer.body.id }, otherKey);
    expect(own.status).toBe(201);
    const ownCreated = await waitFor(
      () => otherReceiver.got.map((d) => verified(otherSecret, d)).find((p) => p.type === 'invoice.created'),
      { what: "the other company's invoice.created" },
    );
    expect(ownCreated.data.invoice).toMatchObject({ id: own.body.invoice_id, customer_id: customer.body.id, status: 'DRAFT' });
    expect(ownCreated.sequence).toBe(1);
    // a moment for anything misrouted to arrive
    await new Promise((r) => setTimeout(r, 1500));
    expect(otherReceiver.got.map((d) => verified(otherSecret, d).type).sort()).toEqual(['invoice.created', 'ping']);
    // and the demo company's endpoint got nothing of the other company's (nothing at all meanwhile)
    expect(receiver.got.slice(demoBefore).map((d) => verified(secret, d).type)).toEqual([]);
    expect(receiver.got.every((d) => !d.body.includes('Kunde der Anderen'))).toBe(true);
  });
});
