import type { Bus } from '@inv/bus';
import type { Messages } from '@inv/contracts';
import { deleteBrokerObjects, deleteRedisKeys, identityHeaders, peerBus, testEnv, testStores, uniquePrefix, waitFor } from '@inv/testing';
import { invoiceConfig } from './config';
import { createInvoiceService } from './invoice-service';
import { peerBillingSnapshot, peerSellerProfile, servePeerRpcs, serveStubRenderer } from './testing/peer-rpcs';

jest.setTimeout(120_000);

type Json = any;

/**
 * `send_email` is no relay: recipients are the customer's (or the seller's own) addresses, subject and message carry
 * no control characters, and the daily limits per invoice (sends) and per company (messages, one per recipient) hold
 * under parallel requests: 429 EMAIL_LIMIT_EXCEEDED with Retry-After beyond them.
 */
describe('invoice e-mail abuse limits', () => {
  const prefix = uniquePrefix('maillim');
  const company = 'cmp_maillim';
  let stores: Awaited<ReturnType<typeof testStores>>;
  let service: Awaited<ReturnType<typeof createInvoiceService>>;
  let url: string;
  let peer: Bus<Messages>;
  let customerEmail = 'ap@buyer.example';

  const call = async (method: string, path: string, body?: unknown, companyId = company) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(await identityHeaders(companyId)) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  };

  beforeAll(async () => {
    stores = await testStores();
    peer = peerBus(prefix);
    servePeerRpcs(peer, {
      'account.seller-profile.v1': () => ({
        ...peerSellerProfile,
        seller: { ...peerSellerProfile.seller, contact: { email: 'billing@seller.example' } },
      }),
      // the customer's address as customer-service knows it now (the invoice keeps the one at finalization)
      'customer.billing-snapshot.v1': () => ({
        ...peerBillingSnapshot,
        buyer: { ...peerBillingSnapshot.buyer, contact: { email: customerEmail }, pec: 'buyer@pec.example' },
      }),
    });
    serveStubRenderer(peer);
    await peer.start();
    // no SMTP_URL: messages are composed and dropped (this suite is about what is accepted, not about SMTP)
    service = await createInvoiceService(
      invoiceConfig.parse(
        testEnv(prefix, stores.mongoUrl, {
          ...stores.s3Env,
          EMAIL_DAILY_LIMIT_INVOICE: '10',
          EMAIL_DAILY_LIMIT_COMPANY: '25',
          PEER_DATA_CACHE_TTL_MS: '0',
        }),
      ),
    );
    url = (await service.start()).url;
  });

  afterAll(async () => {
    await service?.stop();
    await peer?.stop();
    await deleteBrokerObjects(prefix);
    await deleteRedisKeys(`${prefix}:`);
    await stores?.stop();
  });

  const finalized = async (companyId = company) => {
    const id = (await call('POST', '/invoice/', { customer_id: 1 }, companyId)).body.invoice_id as number;
    const position = { title: 'Consulting', quantity: 1, unit_id: 'HUR', unit_net_amount: 100, tax_rate: 0.19 };
    expect((await call('POST', `/invoice/${id}/positions`, position, companyId)).status).toBe(201);
    expect((await call('POST', `/invoice/${id}/job`, { task: 'process_invoice_flag_invoice_send_job' }, companyId)).status).toBe(201);
    await waitFor(async () => ((await call('GET', `/invoice/${id}`, undefined, companyId)).body.status === 'OPEN' ? true : undefined), {
      what: 'finalized',
    });
    return id;
  };
  const send = (id: number, body: Record<string, unknown>, companyId = company) =>
    call('POST', `/invoice/${id}/send_email`, { attach_pdf: false, ...body }, companyId);

  it("accepts the customer's addresses (on the invoice or current, any case) and the seller's, refuses others naming each", async () => {
    customerEmail = 'ap@buyer.example';
    const id = await finalized();
    expect((await send(id, { to: 'AP@Buyer.Example', cc: ['billing@seller.example'] })).status).toBe(202);
    expect((await send(id, { to: 'buyer@pec.example' })).status).toBe(202);
    const relay = await send(id, { to: ['ap@buyer.example', 'victim@elsewhere.example'], bcc: 'other@elsewhere.example' });
    expect(relay.status).toBe(400);
    expect(relay.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(relay.body.errors.map((e: Json) => e.path)).toEqual(['to.1', 'bcc']);
    expect(relay.body.errors[0].message).toMatch(/"victim@elsewhere\.example" is not an e-mail address of the customer or of the seller/);
    expect(relay.body.errors[0].message).toContain('ap@buyer.example');
    // the customer's address changed after finalization: the current one is the customer's too
    customerEmail = 'new-ap@buyer.example';
    expect((await send(id, { to: 'new-ap@buyer.example' })).status).toBe(202);
    expect((await send(id, { to: 'ap@buyer.example' })).status).toBe(202); // the one on the invoice still is
    customerEmail = 'ap@buyer.example';
  });

  it('refuses control characters and bidirectional overrides in subject and message, 400 naming the field', async () => {
    const id = await finalized();
    const header = await send(id, { to: 'ap@buyer.example', subject: 'Invoice\r\nBcc: victim@elsewhere.example' });
    expect([header.status, header.body.errors[0].path]).toEqual([400, 'subject']);
    expect(header.body.errors[0].message).toMatch(/U\+000D at position 8/);
    const nul = await send(id, { to: 'ap@buyer.example', message: 'Hello\u0000' });
    expect([nul.status, nul.body.errors[0].path]).toEqual([400, 'message']);
    const bidi = await send(id, { to: 'ap@buyer.example', subject: 'Invoice \u202Efdp.exe' });
    expect([bidi.status, bidi.body.errors[0].path]).toEqual([400, 'subject']);
    const long = await send(id, { to: 'ap@buyer.example', subject: 'x'.repeat(201) });
    expect([long.status, long.body.errors[0].path]).toEqual([400, 'subject']);
    const longText = await send(id, { to: 'ap@buyer.example', message: 'x'.repeat(10_001) });
    expect([longText.status, longText.body.errors[0].path]).toEqual([400, 'message']);
    // line feeds (also as CR LF) and tabs are what a message has
    expect((await send(id, { to: 'ap@buyer.example', subject: 'Your invoice', message: 'Hello,\r\n\tthe invoice.\nBye' })).status).toBe(
      202,
    );
  });

  it('30 parallel sends of one invoice with a limit of 10 a day: exactly 10 accepted, 20 answered 429 with Retry-After', async () => {
    const other = 'cmp_maillim_b';
    const id = await finalized(other);
    const answers = await Promise.all(Array.from({ length: 30 }, () => send(id, { to: 'ap@buyer.example' }, other)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(refused.body).toMatchObject({ code: 'EMAIL_LIMIT_EXCEEDED', error_code: 'EMAIL_LIMIT_EXCEEDED', scope: 'invoice', limit: 10 });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    expect(refused.body.retry_after).toBe(retryAfter);
    expect((await call('GET', `/invoice/${id}/emails`, undefined, other)).body.emails).toHaveLength(10);
  });

  it('the company limit counts recipients over all invoices: 30 parallel sends with 15 messages left, exactly 15 accepted', async () => {
    const other = 'cmp_maillim_b'; // 10 of its 25 messages went out in the test before
    const ids = await Promise.all([finalized(other), finalized(other), finalized(other)]);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => send(ids[i % 3]!, { to: 'ap@buyer.example' }, other)));
    expect(answers.filter((a) => a.status === 202)).toHaveLength(15);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(15);
    expect(new Set(refused.map((a) => `${a.body.code}/${a.body.scope}/${a.body.limit}`))).toEqual(
      new Set(['EMAIL_LIMIT_EXCEEDED/company/25']),
    );
    // nothing is left: a send with two recipients to a fresh invoice is refused too; another company is not affected
    const fresh = await finalized(other);
    expect((await send(fresh, { to: 'ap@buyer.example', cc: 'billing@seller.example' }, other)).status).toBe(429);
    expect((await send(await finalized(), { to: 'ap@buyer.example' })).status).toBe(202);
  });
});
