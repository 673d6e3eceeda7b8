import { randomUUID } from 'node:crypto';
import type { Bus } from '@inv/bus';
import type { Messages } from '@inv/contracts';
import { testMongo } from '@inv/testing';
import { createCustomerService, eventually, http, testBus, testConfig, testPrefixes, type CustomerService } from './testing/harness';

/**
 * The customer ledger fed by invoice events from a second bus (playing invoice-service): financial
 * overview, statement with running balance, idempotency under redelivery, and the statement PDF RPC
 * (first without a document-service -> 503, then with a stand-in that records the request).
 */
describe('customer-service ledger, overview and statements', () => {
  const prefixes = testPrefixes();
  const company = 'company-ledger';
  let svc: CustomerService;
  let peer: Bus<Messages>;
  let call: ReturnType<typeof http>;
  let customerId: number;

  let mongo: Awaited<ReturnType<typeof testMongo>>;

  beforeAll(async () => {
    mongo = await testMongo();
    svc = await createCustomerService(testConfig(prefixes, { RPC_TIMEOUT_MS: '500', MONGO_URL: mongo.uri }));
    const { url } = await svc.start();
    peer = testBus(prefixes.BUS_PREFIX);
    await peer.start();
    call = http(url, company);
    customerId = (
      await call('POST', '/customer/', { body: { organization_name: 'Ledger GmbH', email: 'ap@ledger.example', language: 'English' } })
    ).body.id;
    await call('POST', `/customer/${customerId}/addresses`, {
      body: { address_line_1: 'Kaiserstr. 5', city: 'Frankfurt', postal_code: '60311', country_code: 'DE' },
    });
  }, 60_000);

  afterAll(async () => {
    await svc?.stop();
    await svc?.runtime.bus.deleteAll();
    await peer?.stop();
    await peer?.deleteAll();
    await mongo?.stop();
  }, 30_000);

  const finalized = (invoiceId: number, over: Record<string, unknown> = {}) => ({
    invoiceId,
    number: `RE-2026-${String(invoiceId).padStart(5, '0')}`,
    typeCode: '380' as const,
    customerId,
    invoiceDate: '2026-02-01',
    dueDate: '2026-02-15',
    currency: 'EUR',
    totalNet: '100.00',
    totalVat: '19.00',
    totalGross: '119.00',
    reservationId: `r-${invoiceId}`,
    ...over,
  });
  const overview = async () => (await call('GET', `/customer/${customerId}/financial-overview`)).body;

  it('starts at zero', async () => {
    expect(await overview()).toEqual({
      customer_id: customerId,
      currency: 'EUR',
      outstanding: { total: 0, count: 0 },
      overdue: { total: 0, count: 0 },
      paid: { total: 0, count: 0 },
      credit_notes: { total: 0, count: 0 },
      balance: 0,
    });
  });

  it('books finalized invoices once even when the same envelope is delivered twice', async () => {
    const id = randomUUID();
    await peer.publishEvent('invoice.finalized.v1', company, finalized(1, { dueDate: '2026-02-15' }), { id });
    await peer.publishEvent('invoice.finalized.v1', company, finalized(1, { dueDate: '2026-02-15' }), { id });
    await peer.publishEvent(
      'invoice.finalized.v1',
      company,
      finalized(2, { invoiceDate: '2026-03-01', dueDate: '2099-12-31', totalGross: '0.10' }),
    );
    const o = await eventually(async () => {
      const v = await overview();
      return v.outstanding.count === 2 ? v : undefined;
    });
    // Let any redelivered copy be processed before asserting it changed nothing.
    await eventually(async () => ((await svc.runtime.conn.collection('processed_events').countDocuments()) >= 2 ? true : undefined));
    await new Promise((r) => setTimeout(r, 300));
    expect((await overview()).outstanding).toEqual({ total: 119.1, count: 2 });
    expect(o.overdue).toEqual({ total: 119, count: 1 });
  });

  it('moves invoices to paid; a redelivered status event and a late SENT after PAID change nothing', async () => {
    const paidId = randomUUID();
    const paid = {
      invoiceId: 1,
      customerId,
      number: 'RE-2026-00001',
      status: 'PAID' as const,
      paidDate: '2026-02-10',
      totalGross: '119.00',
    };
    await peer.publishEvent('invoice.status-changed.v1', company, paid, { id: paidId });
    await peer.publishEvent('invoice.status-changed.v1', company, paid, { id: paidId });
    await peer.publishEvent('invoice.status-changed.v1', company, { invoiceId: 1, customerId, status: 'SENT' });
    const o = await eventually(async () => {
      const v = await overview();
      return v.paid.count === 1 ? v : undefined;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(await overview()).toMatchObject({ paid: { total: 119, count: 1 }, outstanding: { total: 0.1, count: 1 }, balance: 0.1 });
    expect(o.paid).toEqual({ total: 119, count: 1 });
  });

  it('books a credit note (381) as a credit', async () => {
    await peer.publishEvent(
      'invoice.finalized.v1',
      company,
      finalized(3, { typeCode: '381', number: 'GS-2026-00001', invoiceDate: '2026-03-05', dueDate: undefined, totalGross: '0.05' }),
    );
    const o = await eventually(async () => {
      const v = await overview();
      return v.credit_notes.count === 1 ? v : undefined;
    });
    expect(o).toMatchObject({ credit_notes: { total: 0.05, count: 1 }, balance: 0.05 });
  });

  it('a status event that overtakes the finalized event is kept and shown once the invoice is finalized', async () => {
    await peer.publishEvent('invoice.status-changed.v1', company, {
      invoiceId: 4,
      customerId,
      status: 'SENT',
      number: 'RE-2026-00004',
      totalGross: '10.00',
    });
    await eventually(async () =>
      (await svc.runtime.conn.collection('ledger_invoices').countDocuments({ invoiceId: 4 })) === 1 ? true : undefined,
    );
    expect((await overview()).outstanding.count).toBe(1);
    await peer.publishEvent(
      'invoice.finalized.v1',
      company,
      finalized(4, { invoiceDate: '2026-04-01', dueDate: '2099-01-01', totalGross: '10.00' }),
    );
    await eventually(async () => ((await overview()).outstanding.count === 2 ? true : undefined));
    const doc = await svc.runtime.conn.collection('ledger_invoices').findOne({ invoiceId: 4 });
    expect(doc?.status).toBe('SENT');
  });

  it('an invoice settled by its credit note: invoice debit and credit note credit, no payment and no refund', async () => {
    const other = (
      await call('POST', '/customer/', { body: { organization_name: 'Credit GmbH', email: 'ap@credit.example', language: 'English' } })
    ).body.id as number;
    const paid = (invoiceId: number, number: string) => ({
      invoiceId,
      customerId: other,
      number,
      status: 'PAID' as const,
      paidDate: '2026-05-04',
      totalGross: '119.00',
      settledByCredit: true,
    });
    // the invoice's PAID overtakes its finalized event: the flag is kept for it
    await peer.publishEvent('invoice.status-changed.v1', company, paid(101, 'RE-2026-00101'));
    await peer.publishEvent(
      'invoice.finalized.v1',
      company,
      finalized(101, { customerId: other, number: 'RE-2026-00101', invoiceDate: '2026-05-02', dueDate: '2026-05-16' }),
    );
    await peer.publishEvent(
      'invoice.finalized.v1',
      company,
      finalized(102, { customerId: other, typeCode: '381', number: 'GS-2026-00102', invoiceDate: '2026-05-04', dueDate: undefined }),
    );
    await peer.publishEvent('invoice.status-changed.v1', company, paid(102, 'GS-2026-00102'));
    await eventually(async () =>
      (await svc.runtime.conn
        .collection('ledger_invoices')
        .countDocuments({ invoiceId: { $in: [101, 102] }, status: 'PAID', finalized: true })) === 2
        ? true
        : undefined,
    );
    const res = await call('GET', `/customer/${other}/statement?from=2026-05-01&to=2026-05-31`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      opening_balance: 0,
      entries: [
        { date: '2026-05-02', document_number: 'RE-2026-00101', type: 'invoice', debit: 119, credit: null, balance: 119 },
        { date: '2026-05-04', document_number: 'GS-2026-00102', type: 'credit_note', debit: null, credit: 119, balance: 0 },
      ],
      closing_balance: 0,
    });
    expect((await call('GET', `/customer/${other}/financial-overview`)).body).toMatchObject({
      outstanding: { total: 0, count: 0 },
      paid: { total: 0, count: 0 },
      credit_notes: { total: 119, count: 1 },
      balance: 0,
    });
  });

  it('statement: opening balance, entries with running balance, closing balance', async () => {
    const res = await call('GET', `/customer/${customerId}/statement?from=2026-02-05&to=2026-03-31`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      customer_id: customerId,
      currency: 'EUR',
      from: '2026-02-05',
      to: '2026-03-31',
      opening_balance: 119,
      entries: [
        { date: '2026-02-10', document_number: 'RE-2026-00001', type: 'payment', debit: null, credit: 119, balance: 0 },
        { date: '2026-03-01', document_number: 'RE-2026-00002', type: 'invoice', debit: 0.1, credit: null, balance: 0.1 },
        { date: '2026-03-05', document_number: 'GS-2026-00001', type: 'credit_note', debit: null, credit: 0.05, balance: 0.05 },
      ],
      closing_balance: 0.05,
    });
    const year = await call('GET', `/customer/${customerId}/statement?to=2026-12-31`);
    expect(year.body).toMatchObject({ from: '2026-01-01', opening_balance: 0, closing_balance: 10.05 });
    expect(year.body.entries).toHaveLength(5);
  });

  it('statement query: dates must be YYYY-MM-DD and from <= to', async () => {
    expect((await call('GET', `/customer/${customerId}/statement?from=2026-13-01`)).status).toBe(400);
    const german = await call('GET', `/customer/${customerId}/statement?from=01.02.2026`);
    expect([german.status, german.body.errors]).toEqual([
      400,
      [{ path: 'from', in: 'query', message: expect.stringContaining('YYYY-MM-DD'), suggestion: '2026-02-01' }],
    ]);
    const reversed = await call('GET', `/customer/${customerId}/statement?from=2026-03-01&to=2026-02-01`);
    expect(reversed.status).toBe(400);
    expect(reversed.body.errors[0].path).toBe('to');
  });

  it('statement PDF: 503 while document-service (or the company profile) does not answer', async () => {
    const res = await call('GET', `/customer/${customerId}/statement/pdf?from=2026-01-01&to=2026-12-31`);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
  });

  it('statement PDF: sends the statement in renderStatementPdf shape with the language and answers {url}', async () => {
    const requests: unknown[] = [];
    const docs = testBus(prefixes.BUS_PREFIX, 'test-documents');
    docs.serveRpc('account.seller-profile.v1', async () => ({
      found: true,
      seller: {
        name: 'Seller GmbH',
        vatId: 'DE143454214',
        address: { line1: 'Markt 1', city: 'Berlin', postalCode: '10115', countryCode: 'DE' },
      },
      payment: { meansCode: '58' as const, iban: 'DE02120300000000202051' },
    }));
    docs.serveRpc('document.render-statement.v1', async (msg) => {
      requests.push(msg.data);
      return { url: 'http://objects.example/statement.pdf?sig=1', filename: 'statement.pdf', expiresInSeconds: 300 };
    });
    await docs.start();
    try {
      const res = await call('GET', `/customer/${customerId}/statement/pdf?from=2026-02-05&to=2026-03-31`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ url: 'http://objects.example/statement.pdf?sig=1', filename: 'statement.pdf', expires_in: 300 });
      expect(requests).toEqual([
        {
          language: 'en',
          currency: 'EUR',
          company: {
            name: 'Seller GmbH',
            vatId: 'DE143454214',
            address: { line1: 'Markt 1', city: 'Berlin', postalCode: '10115', countryCode: 'DE' },
          },
          companyPayment: { meansCode: '58', iban: 'DE02120300000000202051' },
          customer: {
            name: 'Ledger GmbH',
            electronicAddress: { scheme: 'EM', value: 'ap@ledger.example' },
            address: { line1: 'Kaiserstr. 5', city: 'Frankfurt', postalCode: '60311', countryCode: 'DE' },
            contact: { email: 'ap@ledger.example' },
            customerNumber: '10000',
          },
          statementDate: '2026-03-31',
          from: '2026-02-05',
          to: '2026-03-31',
          openingBalance: '119.00',
          entries: [
            { date: '2026-02-10', documentNumber: 'RE-2026-00001', type: 'payment', credit: '119.00', balance: '0.00' },
            { date: '2026-03-01', documentNumber: 'RE-2026-00002', type: 'invoice', debit: '0.10', balance: '0.10' },
            { date: '2026-03-05', documentNumber: 'GS-2026-00001', type: 'credit_note', credit: '0.05', balance: '0.05' },
          ],
          closingBalance: '0.05',
        },
      ]);
      // the language asked for wins over the customer's, in either spelling and any case
      for (const [language, expected] of [
        ['de', 'de'],
        ['German', 'de'],
        ['ENGLISH', 'en'],
      ] as const) {
        requests.length = 0;
        const asked = await call('GET', `/customer/${customerId}/statement/pdf?from=2026-02-05&to=2026-03-31&language=${language}`);
        expect(asked.status).toBe(200);
        expect(requests).toEqual([expect.objectContaining({ language: expected })]);
      }
      // a language the API does not speak, or a parameter the route does not take, is a 400 instead of being ignored
      requests.length = 0;
      const french = await call('GET', `/customer/${customerId}/statement/pdf?language=fr`);
      expect([french.status, french.body.errors]).toEqual([
        400,
        [{ path: 'language', in: 'query', message: expect.stringContaining('"de" or "en" (also "German" or "English"') }],
      ]);
      const misspelt = await call('GET', `/customer/${customerId}/statement/pdf?lang=de`);
      expect([misspelt.status, misspelt.body.code, misspelt.body.errors]).toEqual([
        400,
        'UNKNOWN_FIELD',
        [{ path: 'lang', in: 'query', message: 'unknown query parameter; did you mean language?' }],
      ]);
      const jsonStatement = await call('GET', `/customer/${customerId}/statement?language=de`);
      expect([jsonStatement.status, jsonStatement.body.errors[0].path]).toEqual([400, 'language']);
      expect(requests).toEqual([]);
    } finally {
      await docs.stop();
      await docs.deleteAll();
    }
  });

  it("another company's customer has no ledger here", async () => {
    expect((await call('GET', `/customer/${customerId}/financial-overview`, { company: 'company-else' })).status).toBe(404);
    expect((await call('GET', `/customer/${customerId}/statement`, { company: 'company-else' })).status).toBe(404);
  });
});
