import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Bus } from '@inv/bus';
import { asCompanyId, type Messages } from '@inv/contracts';
import {
  deleteBrokerObjects,
  deleteRedisKeys,
  identityHeaders,
  peerBus,
  serviceCaller,
  testEnv,
  testStores,
  uniquePrefix,
  waitFor,
} from '@inv/testing';
import { invoiceConfig } from './config';
import { createInvoiceService } from './invoice-service';
import { peerBillingSnapshot, servePeerRpcs } from './testing/peer-rpcs';

jest.setTimeout(120_000);

/**
 * Bank statements (camt.053) through the real invoice-service (embedded MongoDB, real broker; the other services
 * played by a peer bus): the hand-written fixture is imported and matched, imported again (nothing changes), its
 * proposals confirmed into payments (once, also when confirmed twice), corrected and ignored; hostile files refused.
 */
describe('bank statements (invoice-service)', () => {
  const prefix = uniquePrefix();
  let stores: Awaited<ReturnType<typeof testStores>>;
  let service: Awaited<ReturnType<typeof createInvoiceService>>;
  let url: string;
  let peer: Bus<Messages>;
  const company = asCompanyId('cmp_bank');
  const call = serviceCaller(() => url, company);
  const imported: Array<{ statementId: number; credits: number; proposals: number }> = [];
  const buyers: Record<number, string> = { 1: 'Muster GmbH', 2: 'Buyer Two KG', 3: 'Beispiel AG', 4: 'Vierte GmbH' };
  const today = new Date().toISOString().slice(0, 10);
  // the fixture's dates become today's (a payment may not be dated before its invoice)
  const fixture = readFileSync(join(__dirname, 'testing/camt053-fixture.xml'), 'utf8').replaceAll('2026-11-26', today);

  beforeAll(async () => {
    stores = await testStores();
    peer = peerBus(prefix);
    servePeerRpcs(peer, {
      'customer.billing-snapshot.v1': (_c, req) => {
        const { customerId } = req as { customerId: number };
        return { ...peerBillingSnapshot, buyer: { ...peerBillingSnapshot.buyer, name: buyers[customerId] ?? 'Somebody' } };
      },
    });
    peer.onCommand('document.render-invoice.v1', async (msg) => {
      const { jobId, invoiceId } = msg.data;
      await peer.publishEvent('document.rendered.v1', msg.companyId, {
        jobId,
        invoiceId,
        pdf: {
          key: `${msg.companyId}/invoices/${invoiceId}/invoice.pdf`,
          filename: 'invoice.pdf',
          contentType: 'application/pdf',
          size: 10,
        },
      });
    });
    peer.onEvent('bank-test', ['bank-statement.imported.v1'], async (msg) => void imported.push(msg.data));
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

  /** An OPEN invoice of `customer` numbered `number` over `net` at 19 %. */
  const openInvoice = async (customer: number, number: string, net: number, as = call) => {
    const created = await as('POST', '/invoice/', { customer_id: customer, invoice_number: number });
    expect(created.status).toBe(201);
    const id = created.body.invoice_id as number;
    expect(
      (await as('POST', `/invoice/${id}/positions`, { title: 'Work', quantity: 1, unit_id: 'C62', unit_net_amount: net, tax_rate: 0.19 }))
        .status,
    ).toBe(201);
    const job = await as('POST', `/invoice/${id}/job`, { task: 'process_invoice_flag_invoice_send_job' });
    expect(job.status).toBe(201);
    await waitFor(async () => (await as('GET', `/invoice/${id}/job/${job.body.job_id}`)).body.status === 'finished');
    return id;
  };

  const upload = async (body: string | Buffer, contentType = 'application/xml', companyId: string = company) => {
    const res = await fetch(`${url}/bank-statements/`, {
      method: 'POST',
      headers: { 'content-type': contentType, ...(await identityHeaders(companyId)) },
      body,
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as any };
  };

  const ids: Record<string, number> = {};
  let statementId = 0;

  it('imports the fixture: the number, the RF reference and amount + payer are proposed; nothing for the rest', async () => {
    ids.one = await openInvoice(1, 'RE-2026-0001', 100); // 119.00
    ids.two = await openInvoice(2, 'RE-2026-0002', 200); // 238.00
    ids.three = await openInvoice(3, 'RE-2026-0003', 300); // 357.00
    ids.four = await openInvoice(4, 'RE-2026-0004', 50); // 59.50
    const res = await upload(fixture);
    expect(res.status).toBe(201);
    statementId = res.body.id;
    expect(res.body).toMatchObject({
      message_id: 'MSG-2026-11-27-0001',
      camt_version: '08',
      statements: [{ id: `STMT-${today}`, account_iban: 'DE44500105175407324931', currency: 'EUR' }],
      entries_total: 5,
      credits: 4,
      debits: 1,
      credits_with_proposals: 3,
      confirmed: 0,
      total: 5,
    });
    const [e1, e2, e3, e4, e5] = res.body.entries;
    expect(e1.proposals[0]).toMatchObject({
      invoice_id: ids.one,
      invoice_number: 'RE-2026-0001',
      amount: 119,
      confidence: 0.95,
      reasons: ['invoice_number', 'amount_equals_open'],
    });
    expect(e1).toMatchObject({
      type: 'credit',
      amount: '119.00',
      payer_name: 'Muster GmbH',
      payer_iban: 'DE89370400440532013000',
      state: 'open',
      payment: null,
    });
    expect(e2.proposals[0]).toMatchObject({ invoice_id: ids.two, confidence: 0.95, reasons: ['creditor_reference', 'amount_equals_open'] });
    expect(e3.proposals[0]).toMatchObject({
      invoice_id: ids.three,
      confidence: 0.8,
      reasons: ['amount_equals_open', 'payer_name_matches', 'amount_unique'],
    });
    expect(e4.proposals).toEqual([]);
    expect(e5).toMatchObject({ type: 'debit', proposals: [], additional_information: 'Kontofuehrung November' });
    await waitFor(async () => imported.length === 1);
    expect(imported[0]).toEqual({ statementId, credits: 4, proposals: 3 });
  });

  it('answers the stored statement when the same one comes again (same bytes, or same MsgId/Stmt/account), changing nothing', async () => {
    const again = await upload(fixture);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: statementId, message: 'bank statement imported before: nothing changed' });
    // other bytes (a comment), the same statement: multipart this time
    const form = new FormData();
    form.append('file', new Blob([`${fixture}<!-- again -->`], { type: 'application/xml' }), 'statement.xml');
    const res = await fetch(`${url}/bank-statements/`, { method: 'POST', headers: await identityHeaders(company), body: form });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { id: number }).id).toBe(statementId);
    const list = await call('GET', '/bank-statements/');
    expect(list.body).toMatchObject({ total: 1, bank_statements: [{ id: statementId }] });
    await new Promise((r) => setTimeout(r, 300));
    expect(imported).toHaveLength(1);
  });

  it('confirms a proposal into a payment (invoice PAID), once also when confirmed twice', async () => {
    const first = await call('POST', `/bank-statements/${statementId}/entries/1/confirm`);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ state: 'confirmed', payment: { invoice_id: ids.one, amount: 119 } });
    const second = await call('POST', `/bank-statements/${statementId}/entries/1/confirm`, {});
    expect(second.status).toBe(200);
    expect(second.body.payment).toEqual(first.body.payment);
    // at the same time: one payment
    const both = await Promise.all([2, 2].map(() => call('POST', `/bank-statements/${statementId}/entries/2/confirm`)));
    expect(both.map((r) => r.status).sort()).toEqual([200, 201]);
    for (const id of [ids.one, ids.two]) {
      const inv = await call('GET', `/invoice/${id}`);
      expect(inv.body.status).toBe('PAID');
      const payments = (await service.deps.payments.listOf(company, id, { includeReversed: true, page: 1, limit: 10 })).items;
      expect(payments.map((p: { source: string; amount: string }) => [p.source, p.amount])).toEqual([
        ['bank_statement', id === ids.one ? '119.00' : '238.00'],
      ]);
    }
    const other = await call('POST', `/bank-statements/${statementId}/entries/1/confirm`, { invoice_id: ids.four });
    expect(other).toMatchObject({ status: 409, body: { code: 'BANK_ENTRY_ALREADY_CONFIRMED' } });
    const s = await call('GET', `/bank-statements/${statementId}?state=confirmed`);
    expect(s.body).toMatchObject({ confirmed: 2, total: 2 });
  });

  it('corrects a proposal: another invoice and a partial amount', async () => {
    // entry 3 (357.00, proposed for RE-2026-0003): 59.50 of it booked on RE-2026-0004 instead
    const tooMuch = await call('POST', `/bank-statements/${statementId}/entries/4/confirm`, { invoice_id: ids.four, amount: '80.00' });
    expect(tooMuch).toMatchObject({ status: 409, body: { code: 'BANK_AMOUNT_EXCEEDS_CREDIT' } });
    const res = await call('POST', `/bank-statements/${statementId}/entries/4/confirm`, { invoice_id: ids.four, amount: 50 });
    expect(res.status).toBe(201);
    expect(res.body.payment).toMatchObject({ invoice_id: ids.four, amount: 50 });
    const inv = await call('GET', `/invoice/${ids.four}`);
    expect(inv.body.status).not.toBe('PAID');
    const unmatched = await call('POST', `/bank-statements/${statementId}/entries/3/confirm`, { invoice_id: ids.one });
    expect(unmatched).toMatchObject({ status: 409, body: { code: 'INVOICE_ALREADY_PAID' } });
  });

  it('ignores entries; debits cannot be confirmed; unknown ids are 404', async () => {
    const debit = await call('POST', `/bank-statements/${statementId}/entries/5/confirm`);
    expect(debit).toMatchObject({ status: 409, body: { code: 'BANK_ENTRY_NOT_A_CREDIT' } });
    const ignored = await call('POST', `/bank-statements/${statementId}/entries/5/ignore`);
    expect(ignored).toMatchObject({ status: 200, body: { state: 'ignored' } });
    expect((await call('POST', `/bank-statements/${statementId}/entries/5/ignore`)).status).toBe(200);
    expect(await call('POST', `/bank-statements/${statementId}/entries/1/ignore`)).toMatchObject({
      status: 409,
      body: { code: 'BANK_ENTRY_ALREADY_CONFIRMED' },
    });
    expect((await call('POST', `/bank-statements/${statementId}/entries/99/confirm`)).status).toBe(404);
    expect((await call('GET', `/bank-statements/${statementId + 100}`)).status).toBe(404);
    expect(await call('POST', `/bank-statements/${statementId}/entries/3/confirm`, { invoice_id: ids.three, surprise: 1 })).toMatchObject({
      status: 400,
      body: { code: 'UNKNOWN_FIELD' },
    });
    // entry 3 confirmed as proposed (amount + payer name) after all
    expect((await call('POST', `/bank-statements/${statementId}/entries/3/confirm`)).body.payment).toMatchObject({
      invoice_id: ids.three,
      amount: 357,
    });
    const s = await call('GET', `/bank-statements/${statementId}`);
    expect(s.body).toMatchObject({ confirmed: 4, ignored: 1 });
    // another company sees nothing
    const stranger = serviceCaller(() => url, asCompanyId('cmp_bank_other'));
    expect((await stranger('GET', `/bank-statements/${statementId}`)).status).toBe(404);
    expect((await stranger('GET', '/bank-statements/')).body.total).toBe(0);
  });

  it('books an entry again once its payment was reversed: on another invoice, or ignores it', async () => {
    const entry = (await call('GET', `/bank-statements/${statementId}?state=confirmed&limit=10`)).body.entries.find(
      (e: { id: number }) => e.id === 3,
    );
    const { payment_id: paymentId } = entry.payment;
    // still booked: another invoice is refused
    expect(await call('POST', `/bank-statements/${statementId}/entries/3/confirm`, { invoice_id: ids.four })).toMatchObject({
      status: 409,
      body: { code: 'BANK_ENTRY_ALREADY_CONFIRMED' },
    });
    expect((await call('POST', `/invoice/${ids.three}/payments/${paymentId}/reverse`)).status).toBe(200);
    const ignored = await call('POST', `/bank-statements/${statementId}/entries/3/ignore`);
    expect(ignored.body).toMatchObject({ state: 'ignored', payment: null });
    expect((await call('GET', `/bank-statements/${statementId}`)).body).toMatchObject({ confirmed: 3, ignored: 2 });
    const rebooked = await call('POST', `/bank-statements/${statementId}/entries/3/confirm`);
    expect(rebooked.status).toBe(201);
    expect(rebooked.body.payment.payment_id).not.toBe(paymentId);
    expect((await call('GET', `/invoice/${ids.three}`)).body.status).toBe('PAID');
    expect((await call('GET', `/bank-statements/${statementId}`)).body).toMatchObject({ confirmed: 4, ignored: 1 });
  });

  it('knows a payer by the IBAN of a confirmed match in the next statement', async () => {
    const inv = await openInvoice(9, 'RE-2026-0009', 10); // 11.90, customer "Somebody"
    const next = fixture
      .replace('MSG-2026-11-27-0001', 'MSG-2026-11-28-0001')
      .replace('<Amt Ccy="EUR">119.00</Amt>', '<Amt Ccy="EUR">11.90</Amt>')
      .replace('Rechnung re 2026 0001, Kd.-Nr. 4711', 'Danke')
      .replace('<Nm>Muster GmbH</Nm>', '<Nm>M. Mustermann</Nm>');
    const res = await upload(next);
    expect(res.status).toBe(201);
    expect(res.body.entries[0].proposals[0]).toMatchObject({ invoice_id: inv, confidence: 0.5 });
    // the IBAN of entry 1 (DE89…) paid for customer 1 before: an invoice of customer 1 with that amount wins
    const ofMuster = await openInvoice(1, 'RE-2026-0010', 10);
    const third = await upload(next.replace('MSG-2026-11-28-0001', 'MSG-2026-11-28-0002'));
    expect(third.body.entries[0].proposals[0]).toMatchObject({
      invoice_id: ofMuster,
      confidence: 0.8,
      reasons: expect.arrayContaining(['payer_iban_known']),
    });
  });

  it('does not book a credit in another currency as a EUR payment', async () => {
    const inv = await openInvoice(4, 'RE-2026-0011', 100); // 119.00
    const usd = fixture
      .replace('MSG-2026-11-27-0001', 'MSG-2026-11-29-USD')
      .replace('<Amt Ccy="EUR">119.00</Amt>', '<Amt Ccy="USD">119.00</Amt>')
      .replace('<Amt Ccy="EUR">119.00</Amt>', '<Amt Ccy="USD">119.00</Amt>');
    const res = await upload(usd);
    expect(res.status).toBe(201);
    expect(res.body.entries[0]).toMatchObject({ currency: 'USD', proposals: [] });
    const confirm = await call('POST', `/bank-statements/${res.body.id}/entries/1/confirm`, { invoice_id: inv });
    expect(confirm.status).toBe(409);
    expect(confirm.body).toMatchObject({ code: 'BANK_ENTRY_CURRENCY_MISMATCH', currency: 'USD' });
    expect((await call('GET', `/invoice/${inv}/payments`)).body.payments).toEqual([]);
  });

  it('refuses hostile and wrong files with clear 4xx', async () => {
    expect(await upload('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.052.001.08"><BkToCstmrRpt/></Document>')).toMatchObject({
      status: 400,
      body: { code: 'NOT_CAMT053' },
    });
    expect(await upload('<Document')).toMatchObject({ status: 400, body: { code: 'XML_NOT_WELL_FORMED' } });
    const xxe = fixture.replace(
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<?xml version="1.0"?><!DOCTYPE Document [<!ENTITY x SYSTEM "file:///etc/passwd">]>',
    );
    expect(await upload(xxe.replace('Spende', '&x;'))).toMatchObject({ status: 400, body: { code: 'XML_DTD_FORBIDDEN' } });
    expect(await upload(fixture.replace('>77.77<', '>77,77<').replace('MSG-2026-11-27-0001', 'X'))).toMatchObject({
      status: 400,
      body: { code: 'BANK_STATEMENT_INVALID', errors: [{ path: 'Stmt[1]/Ntry[4]/Amt' }] },
    });
    expect(await upload('{"a":1}', 'application/json')).toMatchObject({ status: 415 });
    const huge = Buffer.alloc(20 * 1024 * 1024 + 10, 0x20);
    expect(await upload(huge)).toMatchObject({ status: 413, body: { code: 'BANK_STATEMENT_TOO_LARGE' } });
    expect((await call('GET', '/bank-statements/')).body.total).toBe(4); // the good ones of the tests before
  });

  it('confirms every entry three times at the same moment: one payment each, the others answered 200', async () => {
    const n = 6;
    const invs: number[] = [];
    for (let k = 0; k < n; k++) invs.push(await openInvoice(1, `RX-${k}`, 100 + k));
    const ntry = (k: number) =>
      `<Ntry><Amt Ccy="EUR">${((100 + k) * 1.19).toFixed(2)}</Amt><CdtDbtInd>CRDT</CdtDbtInd><BookgDt><Dt>${today}</Dt></BookgDt>` +
      `<NtryDtls><TxDtls><RmtInf><Ustrd>RX-${k}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`;
    const xml = `<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt><GrpHdr><MsgId>RACE</MsgId></GrpHdr><Stmt><Id>R</Id><Acct><Id><IBAN>DE44500105175407324931</IBAN></Id></Acct>${Array.from({ length: n }, (_, k) => ntry(k)).join('')}</Stmt></BkToCstmrStmt></Document>`;
    const res = await upload(xml);
    expect(res.status).toBe(201);
    const sid = res.body.id;
    const statuses = await Promise.all(
      Array.from({ length: n }, (_, k) =>
        Promise.all([1, 2, 3].map(() => call('POST', `/bank-statements/${sid}/entries/${k + 1}/confirm`))),
      ),
    );
    for (const k of invs) {
      const payments = (await service.deps.payments.listOf(company, k, { includeReversed: true, page: 1, limit: 10 })).items;
      expect(payments).toHaveLength(1);
    }
    for (const r of statuses) expect(r.map((x) => x.status).sort()).toEqual([200, 200, 201]);
  });

  it('stores a statement uploaded twice at the same moment once', async () => {
    const twin = fixture.replace('MSG-2026-11-27-0001', 'MSG-TWIN');
    const before = imported.length;
    const both = await Promise.all([upload(twin), upload(twin)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 201]);
    expect(both[0]!.body.id).toBe(both[1]!.body.id);
    await waitFor(async () => imported.length === before + 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(imported).toHaveLength(before + 1);
  });
});
