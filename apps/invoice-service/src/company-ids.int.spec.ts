import { randomUUID } from 'node:crypto';
import mongoose, { type Connection } from 'mongoose';
import type { Bus } from '@inv/bus';
import { asCompanyId, type Messages } from '@inv/contracts';
import { startEmbeddedMongo } from '@inv/embedded-mongo';
import { createCounters } from '@inv/runtime';
import { deleteBrokerObjects, deleteRedisKeys, identityHeaders, peerBus, testEnv, testStores, uniquePrefix, waitFor } from '@inv/testing';
import { invoiceConfig } from './config';
import { positionIdsPerCompany } from './invoices/db/position-ids';
import { attachmentsRepo } from './invoices/db/attachments';
import { invoicesRepo } from './invoices/db/invoices';
import { productsRepo } from './invoices/db/products';
import { createInvoiceService } from './invoice-service';

jest.setTimeout(60_000);

/**
 * Ids are numbered per company: a company's first invoice is 1 whatever other companies did, and two companies'
 * invoice 1 never meet (reads, writes, finalization, the messages it causes).
 */
describe('ids per company (invoice-service)', () => {
  const prefix = uniquePrefix();
  let stores: Awaited<ReturnType<typeof testStores>>;
  let service: Awaited<ReturnType<typeof createInvoiceService>>;
  let url: string;
  let peer: Bus<Messages>;
  const a = asCompanyId(`cmp_ids_a_${randomUUID().slice(0, 8)}`);
  const b = asCompanyId(`cmp_ids_b_${randomUUID().slice(0, 8)}`);
  const finalized: { id: string; companyId: string; invoiceId: number; pdfKey?: string }[] = [];
  const renders: { companyId: string; invoiceId: number }[] = [];

  const call = async (companyId: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(await identityHeaders(companyId)) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const position = { title: 'Consulting', quantity: 2, unit_id: 'HUR', unit_net_amount: 100, tax_rate: 0.19 };

  beforeAll(async () => {
    stores = await testStores();
    peer = peerBus(prefix);
    peer.serveRpc('account.seller-profile.v1', async (msg) => ({
      found: true,
      seller: {
        name: `Seller ${msg.companyId}`,
        vatId: 'DE123456789',
        address: { line1: 'Str 1', city: 'Berlin', postalCode: '10115', countryCode: 'DE' },
      },
      payment: { meansCode: '58', iban: 'DE02120300000000202051' },
      paymentTermDays: 14,
    }));
    peer.serveRpc('customer.billing-snapshot.v1', async () => ({
      found: true,
      hasBillingAddress: true,
      buyer: {
        name: 'Buyer AG',
        vatId: 'DE987654321',
        address: { line1: 'Weg 2', city: 'Hamburg', postalCode: '20095', countryCode: 'DE' },
      },
      language: 'de',
      vatStatus: 'valid',
    }));
    peer.serveRpc('quota.reserve.v1', async () => ({ granted: true, used: 1, limit: 100, reset_date: '2026-12-01', plan: 'pro' }));
    peer.serveRpc('document.template-exists.v1', async () => ({ exists: true }));
    // document-service's part: the documents go under the company's own prefix
    peer.onCommand('document.render-invoice.v1', async (msg) => {
      const { jobId, invoiceId } = msg.data;
      renders.push({ companyId: msg.companyId, invoiceId });
      const key = `${msg.companyId}/invoices/${invoiceId}/invoice.pdf`;
      await peer.publishEvent('document.rendered.v1', msg.companyId, {
        jobId,
        invoiceId,
        pdf: { key, filename: 'invoice.pdf', contentType: 'application/pdf', size: 10 },
      });
    });
    peer.onEvent('ids-finalized', ['invoice.finalized.v1'], async (msg) => {
      finalized.push({ id: msg.id, companyId: msg.companyId, invoiceId: msg.data.invoiceId, pdfKey: msg.data.pdf?.key });
    });
    await peer.start();
    service = await createInvoiceService(invoiceConfig.parse(testEnv(prefix, stores.mongoUrl, stores.s3Env)));
    url = (await service.start()).url;
  });

  afterAll(async () => {
    await service?.stop();
    await peer?.stop();
    await deleteBrokerObjects(prefix);
    await deleteRedisKeys(`${prefix}:`);
    await stores?.stop();
  });

  it("gives each company's first invoice id 1, and finalizes both invoices 1 at once without mixing them", async () => {
    const first = await Promise.all([a, b].map((c) => call(c, 'POST', '/invoice/', { customer_id: 1, invoice_format: 'ZUGFERD' })));
    expect(first.map((r) => [r.status, r.body.invoice_id])).toEqual([
      [201, 1],
      [201, 1],
    ]);
    // positions are numbered per company too
    for (const c of [a, b]) expect((await call(c, 'POST', '/invoice/1/positions', position)).body).toMatchObject({ position_id: 1 });
    // b's invoice 1 is a different document: a change of a's is not b's
    expect((await call(a, 'PUT', '/invoice/1', { note: 'only a' })).status).toBe(200);
    expect((await call(b, 'GET', '/invoice/1')).body.note ?? null).toBeNull();

    const jobs = await Promise.all([a, b].map((c) => call(c, 'POST', '/invoice/1/job', { task: 'process_invoice_flag_invoice_send_job' })));
    expect(jobs.map((j) => j.status)).toEqual([201, 201]);
    await waitFor(async () => (await Promise.all([a, b].map((c) => call(c, 'GET', '/invoice/1')))).every((r) => r.body.status === 'OPEN'));
    await service.runtime.relay.flush();
    await waitFor(async () => finalized.filter((f) => f.companyId === a || f.companyId === b).length === 2);
    const mine = finalized.filter((f) => f.companyId === a || f.companyId === b).sort((x, y) => x.companyId.localeCompare(y.companyId));
    expect(mine).toEqual([
      { id: `finalized-${a}-1`, companyId: a, invoiceId: 1, pdfKey: `${a}/invoices/1/invoice.pdf` },
      { id: `finalized-${b}-1`, companyId: b, invoiceId: 1, pdfKey: `${b}/invoices/1/invoice.pdf` },
    ]);
    const stored = await Promise.all([a, b].map((c) => service.deps.invoices.get(c, 1)));
    expect(stored.map((s) => [s?._id, s?.companyId, s?.status, s?.pdf?.key, s?.snapshot?.seller.name])).toEqual([
      [`${a}:1`, a, 'OPEN', `${a}/invoices/1/invoice.pdf`, `Seller ${a}`],
      [`${b}:1`, b, 'OPEN', `${b}/invoices/1/invoice.pdf`, `Seller ${b}`],
    ]);
  });

  it("gives each company's first product and first attachment id 1", async () => {
    const product = { name: 'Consulting', unit_id: 'HUR', unit_net_amount: '100.00' };
    const products = await Promise.all([a, b].map((c) => call(c, 'POST', '/products/', product)));
    expect(products.map((r) => [r.status, r.body.id])).toEqual([
      [201, 1],
      [201, 1],
    ]);
    const drafts = await Promise.all([a, b].map((c) => call(c, 'POST', '/invoice/', { customer_id: 1 })));
    const uploads = await Promise.all(
      [a, b].map(async (c, i) => {
        const form = new FormData();
        form.append('file', new Blob([Buffer.from('%PDF-1.7\n%%EOF\n')]), `doc-${i}.pdf`);
        const res = await fetch(`${url}/invoice/${drafts[i].body.invoice_id}/attachments`, {
          method: 'POST',
          headers: await identityHeaders(c),
          body: form,
        });
        return { status: res.status, body: (await res.json()) as { id: number } };
      }),
    );
    expect(uploads.map((u) => [u.status, u.body.id])).toEqual([
      [201, 1],
      [201, 1],
    ]);
    // each company reads its own
    for (const [i, c] of [a, b].entries()) {
      const listed = await call(c, 'GET', `/invoice/${drafts[i].body.invoice_id}/attachments`);
      expect(listed.body.attachments).toEqual([expect.objectContaining({ id: 1, filename: `doc-${i}.pdf` })]);
    }
    // product 2 of a only: b does not see it
    expect((await call(a, 'POST', '/products/', { ...product, name: 'Second' })).body.id).toBe(2);
    for (const [method, body] of [['GET'], ['PUT', { name: 'x' }], ['DELETE']] as const)
      expect([method, (await call(b, method, '/products/2', body)).status]).toEqual([method, 404]);
  });

  it('answers 404 to every route of one company with an id only another company has', async () => {
    const three = await call(a, 'POST', '/invoice/', { customer_id: 1 });
    expect(three.body.invoice_id).toBe(3); // b has invoices 1 and 2 only
    expect((await call(a, 'POST', '/invoice/3/positions', position)).status).toBe(201);
    const positionId = (await call(a, 'GET', '/invoice/3')).body.positions[0].id as number;
    const routes: [string, string, unknown?][] = [
      ['GET', '/invoice/3'],
      ['PUT', '/invoice/3', { note: 'x' }],
      ['GET', '/invoice/3/positions'],
      ['POST', '/invoice/3/positions', position],
      ['GET', `/invoice/3/positions/${positionId}`],
      ['PUT', `/invoice/3/positions/${positionId}`, { quantity: 3 }],
      ['DELETE', `/invoice/3/positions/${positionId}`],
      ['PUT', '/invoice/3/positions/reorder', { position_ids: [positionId] }],
      ['GET', '/invoice/3/validate'],
      ['POST', '/invoice/3/job', { task: 'process_invoice_flag_invoice_send_job' }],
      ['GET', '/invoice/3/job/00000000-0000-4000-8000-000000000000'],
      ['PUT', '/invoice/3/status', { status: 'SENT' }],
      ['POST', '/invoice/3/cancel'],
      ['POST', '/invoice/3/duplicate'],
      ['POST', '/invoice/3/credit-note', {}],
      ['GET', '/invoice/3/pdf-link'],
      ['GET', '/invoice/3/xml-link'],
      ['GET', '/invoice/3/preview'],
      ['GET', '/invoice/3/emails'],
      ['POST', '/invoice/3/send_email', { to: 'x@example.com' }],
      ['GET', '/invoice/3/attachments'],
      ['GET', '/invoice/3/attachments/1'],
      ['DELETE', '/invoice/3/attachments/1'],
    ];
    for (const [method, path, body] of routes)
      expect([method, path, (await call(b, method, path, body)).status]).toEqual([method, path, 404]);
    // and a's invoice 3 is untouched
    expect((await call(a, 'GET', '/invoice/3')).body).toMatchObject({ status: 'DRAFT', positions: [{ id: positionId }] });
  });
});

/** Invoices stored before ids were per company (`_id` the global number) keep their ids; counters continue after them. */
describe('migration of invoices to ids per company', () => {
  let mongo: Awaited<ReturnType<typeof startEmbeddedMongo>>;
  let conn: Connection;
  const a = asCompanyId('cmp_old_a');
  const b = asCompanyId('cmp_old_b');

  beforeAll(async () => {
    mongo = await startEmbeddedMongo();
    conn = await mongoose.createConnection(mongo.uri, { dbName: `ids_migration_${randomUUID().slice(0, 8)}` }).asPromise();
  });
  afterAll(async () => {
    await conn?.dropDatabase().catch(() => undefined);
    await conn?.close();
    await mongo?.stop();
  });

  const legacy = (id: number, companyId: string) => ({
    _id: id,
    companyId,
    customerId: 1,
    status: 'DRAFT',
    number: `RE-${id}`,
    typeCode: '380',
    format: 'ZUGFERD',
    positions: [],
    createdAt: new Date('2026-01-01T00:00:00Z'),
    updatedAt: new Date('2026-01-01T00:00:00Z'),
  });

  it('moves every old document to its company key, keeps its id, and starts the counters after the largest', async () => {
    const raw = conn.db!.collection('invoices');
    await raw.insertMany([legacy(3, a), legacy(5, b), legacy(3817, a)] as never[]);
    await conn.db!.collection('counters').insertOne({ _id: 'invoice', seq: 3817 } as never);

    const repo = invoicesRepo(conn);
    await repo.init();
    const docs = await raw.find({}).sort({ _id: 1 }).toArray();
    expect(docs.map((d) => [d._id, d.id, d.companyId, d.number])).toEqual([
      [`${a}:3`, 3, a, 'RE-3'],
      [`${a}:3817`, 3817, a, 'RE-3817'],
      [`${b}:5`, 5, b, 'RE-5'],
    ]);
    expect((await repo.get(a, 3817))?.number).toBe('RE-3817');
    expect(await repo.get(b, 3817)).toBeNull();
    const counters = createCounters(conn);
    expect(await counters.next(`invoice:${a}`)).toBe(3818);
    expect(await counters.next(`invoice:${b}`)).toBe(6);
    expect(await counters.next(`invoice:${asCompanyId('cmp_new')}`)).toBe(1);

    // a second start finds nothing to move and changes nothing
    await repo.init();
    expect(await raw.countDocuments({})).toBe(3);
    expect(await counters.next(`invoice:${a}`)).toBe(3819);
  });

  it('numbers positions per company, continuing after the largest id the former global counter gave', async () => {
    const repo = invoicesRepo(conn);
    await conn
      .db!.collection('invoices')
      .insertOne({ ...legacy(4000, a), _id: `${a}:4000`, id: 4000, positions: [{ id: 900 }, { id: 7 }] } as never);
    const counters = createCounters(conn);
    const next = positionIdsPerCompany(counters, (c) => repo.maxPositionId(c), 5);
    expect([await next(a), await next(a), await next(b)]).toEqual([901, 902, 1]);
    // another process (or a restart) takes the next block; the floor was computed once, when the counter began
    const restarted = positionIdsPerCompany(
      counters,
      async () => {
        throw new Error('the floor is computed only for a counter that does not exist yet');
      },
      5,
    );
    expect(await restarted(a)).toBe(906);
  });

  it('moves products and attachments the same way', async () => {
    const at = new Date('2026-01-01T00:00:00Z');
    const product = (id: number, companyId: string) => ({
      _id: id,
      companyId,
      name: `P${id}`,
      unitCode: 'HUR',
      unitPrice: '1.00',
      taxRate: '0.19',
      taxTreatmentId: 'standard',
      active: true,
      createdAt: at,
      updatedAt: at,
    });
    const attachment = (id: number, companyId: string) => ({
      _id: id,
      companyId,
      invoiceId: 3,
      filename: `a${id}.pdf`,
      contentType: 'application/pdf',
      size: 1,
      sha256: 'x',
      key: `${companyId}/invoices/3/attachments/${id}-a${id}.pdf`,
      createdAt: at,
    });
    await conn.db!.collection('products').insertMany([product(4, a), product(9, b)] as never[]);
    await conn.db!.collection('attachments').insertMany([attachment(12, a), attachment(13, a)] as never[]);
    const products = productsRepo(conn);
    const attachments = attachmentsRepo(conn);
    await Promise.all([products.init(), attachments.init()]);
    expect((await products.get(a, 4))?.name).toBe('P4');
    expect(await products.get(b, 4)).toBeNull();
    expect((await attachments.ofInvoice(a, 3)).map((x) => [x._id, x.id])).toEqual([
      [`${a}:12`, 12],
      [`${a}:13`, 13],
    ]);
    const counters = createCounters(conn);
    expect(await counters.next(`product:${b}`)).toBe(10);
    expect(await counters.next(`attachment-id:${a}`)).toBe(14);
  });
});
