import type { Bus } from '@inv/bus';
import { asCompanyId, testTwinOf, type Messages } from '@inv/contracts';
import { startEmbeddedS3, type EmbeddedS3 } from '@inv/objects';
import { connectMongo } from '@inv/service-kit';
import { deleteBrokerObjects, identityHeaders, peerBus, testEnv, testMongo, uniquePrefix } from '@inv/testing';
import { invoiceConfig } from './config';
import { createInvoiceService } from './invoice-service';

jest.setTimeout(120_000);

type Json = any;

/**
 * GET /invoice/ as a list page uses it, against the real broker and the embedded MongoDB: what each entry shows, the
 * search `q` (taken literally, bounded), cursor paging in every sort order, unknown parameters, and the test twin's
 * invoices kept apart from the live company's.
 */
describe('the invoice list', () => {
  const prefix = uniquePrefix('list');
  const company = 'cmp_list';
  const twin = testTwinOf(asCompanyId(company));
  /** The customers' names: metacharacters of regular expressions, umlauts, and a name that only looks like a pattern. */
  const names: Record<number, string> = {
    1: 'Müller (Bau) GmbH',
    2: 'Schmidt & Söhne',
    3: 'a.b AG',
    4: 'axb AG',
    5: 'Weber*',
  };
  let mongo: Awaited<ReturnType<typeof testMongo>>;
  let s3: EmbeddedS3;
  let service: Awaited<ReturnType<typeof createInvoiceService>>;
  let url: string;
  let peer: Bus<Messages>;

  const call = async (method: string, path: string, body?: unknown, companyId: string = company) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(await identityHeaders(companyId)) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
  };
  const list = async (query: string, companyId: string = company) => {
    const res = await call('GET', `/invoice/?${query}`, undefined, companyId);
    expect([query, res.status, res.status === 200 ? '' : res.body]).toEqual([query, 200, '']);
    return res.body as { invoices: Json[]; total: number; page: number; limit: number; next_cursor: string | null };
  };
  const create = async (customerId: number, net?: number, companyId: string = company) => {
    const created = await call('POST', '/invoice/', { customer_id: customerId }, companyId);
    expect(created.status).toBe(201);
    const id = created.body.invoice_id as number;
    if (net !== undefined) {
      const pos = { title: 'Work', quantity: 1, unit_id: 'C62', unit_net_amount: net, tax_rate: 0.19 };
      expect((await call('POST', `/invoice/${id}/positions`, pos, companyId)).status).toBe(201);
    }
    return id;
  };
  const numbers = (page: { invoices: Json[] }) => page.invoices.map((i) => i.invoice_number as string);

  beforeAll(async () => {
    mongo = await testMongo();
    s3 = await startEmbeddedS3();
    peer = peerBus(prefix);
    peer.serveRpc('customer.billing-snapshot.v1', async ({ data: { customerId } }) => ({
      found: true,
      hasBillingAddress: true,
      buyer: {
        name: names[customerId] ?? `Kunde ${customerId}`,
        address: { line1: 'Weg 2', city: 'Hamburg', postalCode: '20095', countryCode: 'DE' },
      },
      language: 'de',
      vatStatus: 'not_checked',
    }));
    await peer.start();
    service = await createInvoiceService(
      invoiceConfig.parse(testEnv(prefix, mongo.uri, { S3_ENDPOINT: s3.endpoint, S3_BUCKET: 'list-test' })),
    );
    url = (await service.start()).url;
    // 12 drafts of 5 customers, amounts repeating (ties broken by id); 2 drafts of the test twin
    for (let i = 0; i < 12; i++) await create((i % 5) + 1, i % 3 === 0 ? undefined : 100 * (i % 4) + 100);
    for (let i = 0; i < 2; i++) await create(1, 50, twin);
    // invoice dates as finalization sets them, on 8 of the 12 (repeating: ties), the other 4 without one as drafts are
    const conn = await connectMongo(mongo.uri, `${prefix.replace(/-/g, '_')}_invoicing_invoice`);
    for (let id = 1; id <= 8; id++)
      await conn.db!.collection('invoices').updateOne({ companyId: company, id }, { $set: { invoiceDate: `2026-0${(id % 3) + 1}-15` } });
    await conn.close();
  });

  afterAll(async () => {
    await service?.stop();
    await peer?.stop();
    await deleteBrokerObjects(prefix);
    await s3?.stop();
    await mongo?.stop();
  });

  it('shows in each entry what a list page shows: number, customer name, status, dates, total, open amount', async () => {
    const page = await list('limit=1');
    expect(page).toMatchObject({ total: 12, page: 1, limit: 1 });
    expect(page.invoices[0]).toMatchObject({
      invoice_number: expect.any(String),
      customer_id: 2,
      customer_name: 'Schmidt & Söhne',
      status: 'DRAFT',
      invoice_date: null, // a draft's
      due_date: null,
      gross_amount: expect.any(Number),
      open_amount: null, // a draft owes nothing yet
      position_count: 1,
    });
    expect(page.invoices[0].positions).toBeUndefined();
  });

  it('searches invoice numbers and customer names with q, case-insensitive and literally', async () => {
    const all = await list('limit=100');
    const first = all.invoices[all.invoices.length - 1];
    expect((await list(`q=${encodeURIComponent(first.invoice_number.toLowerCase())}`)).invoices.map((i) => i.id)).toContain(first.id);
    const muller = await list(`q=${encodeURIComponent('MÜLLER (bau)')}&limit=100`);
    expect(muller.total).toBe(3);
    expect(new Set(muller.invoices.map((i) => i.customer_name))).toEqual(new Set(['Müller (Bau) GmbH']));
    // a dot is a dot, a star a star: "a.b" finds "a.b AG" but not "axb AG"; ".*" and "*" find only what contains them
    expect(new Set((await list('q=a.b&limit=100')).invoices.map((i) => i.customer_name))).toEqual(new Set(['a.b AG']));
    expect((await list(`q=${encodeURIComponent('.*')}`)).total).toBe(0);
    expect(new Set((await list(`q=${encodeURIComponent('*')}&limit=100`)).invoices.map((i) => i.customer_name))).toEqual(
      new Set(['Weber*']),
    );
    for (const hostile of ['(a+)+$', '[', '\\', '^$|.', '(?=x)'])
      expect([hostile, (await list(`q=${encodeURIComponent(hostile)}`)).total]).toEqual([hostile, 0]);
  });

  it('answers a search too long, empty or repeated, and an unknown parameter, with 400', async () => {
    for (const query of [`q=${'a'.repeat(10_000)}`, `q=${'a'.repeat(101)}`, 'q=', 'q=%20%20', 'q=a&q=b']) {
      const res = await call('GET', `/invoice/?${query}`);
      expect([query.slice(0, 20), res.status, res.body.code]).toEqual([query.slice(0, 20), 400, 'VALIDATION_ERROR']);
    }
    const typo = await call('GET', '/invoice/?qq=Müller');
    expect(typo.status).toBe(400);
    expect(JSON.stringify(typo.body)).toContain('qq');
    expect((await call('GET', '/invoice/?search=x')).status).toBe(400);
  });

  it('pages with next_cursor through every sort order: each invoice once, in the order of one big page', async () => {
    for (const sort of ['-created', 'created', 'number', '-number', 'amount', '-amount', 'date', '-date']) {
      const whole = await list(`sort=${sort}&limit=100`);
      expect(whole.next_cursor).toBeNull();
      const walked: string[] = [];
      let page = await list(`sort=${sort}&limit=5`);
      walked.push(...numbers(page));
      while (page.next_cursor) {
        page = await list(`sort=${sort}&limit=5&cursor=${page.next_cursor}`);
        expect(page.total).toBe(12);
        walked.push(...numbers(page));
      }
      expect([sort, walked]).toEqual([sort, numbers(whole)]);
    }
    // descending, invoices without a date come last (as MongoDB sorts a missing field)
    expect((await list('sort=-date&limit=100')).invoices.map((i) => i.invoice_date !== null)).toEqual([
      ...Array(8).fill(true),
      ...Array(4).fill(false),
    ]);
    // filters stay with the cursor; the headers link the next page by cursor
    const first = await list('customer_id=1&limit=1');
    const res = await call('GET', `/invoice/?customer_id=1&limit=1&cursor=${first.next_cursor}`);
    expect(res.body.invoices.map((i: Json) => i.customer_id)).toEqual([1]);
    expect(res.headers.get('x-total-count')).toBe('3');
    expect(res.headers.get('link')).toContain(`cursor=${res.body.next_cursor}`);
  });

  it('answers a cursor with a page, of another sort order, or forged, with 400', async () => {
    const { next_cursor: cursor } = await list('limit=2');
    const forged = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    for (const query of [
      `cursor=${cursor}&page=2`,
      `cursor=${cursor}&sort=number`,
      'cursor=not-a-cursor',
      `cursor=${forged(['-created', null, { $gt: 0 }])}`,
      `cursor=${forged({ $where: 'sleep(100)' })}`,
      `cursor=${'A'.repeat(10_000)}`,
      'cursor=a%2Fb',
    ]) {
      const res = await call('GET', `/invoice/?${query}`);
      expect([query.slice(0, 40), res.status, res.body.code]).toEqual([query.slice(0, 40), 400, 'VALIDATION_ERROR']);
    }
  });

  it("keeps the test twin's invoices and the live company's apart, in lists, searches and cursors", async () => {
    const live = await list('limit=100');
    const test = await list('limit=100', twin);
    expect(test.total).toBe(2);
    expect(new Set(test.invoices.map((i) => i.id)).size).toBe(2);
    expect(live.total).toBe(12);
    expect((await list(`q=${encodeURIComponent('müller')}&limit=100`, twin)).total).toBe(2);
    expect((await list(`q=${encodeURIComponent('müller')}&limit=100`)).total).toBe(3);
    // a cursor holds a position, never a company: the twin's cursor pages the live list after that position, nothing else
    const twinCursor = (await list('limit=1', twin)).next_cursor!;
    const after = await list(`limit=100&cursor=${twinCursor}`);
    expect(after.total).toBe(12);
    expect(after.invoices.every((i) => live.invoices.some((l) => l.id === i.id && l.invoice_number === i.invoice_number))).toBe(true);
  });
});
