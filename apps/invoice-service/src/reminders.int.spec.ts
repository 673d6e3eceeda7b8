import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { Bus } from '@inv/bus';
import type { Messages } from '@inv/contracts';
import { createObjectStore, startEmbeddedS3, type EmbeddedS3, type ObjectStore } from '@inv/objects';
import { deleteBrokerObjects, deleteRedisKeys, identityHeaders, peerBus, testEnv, testMongo, uniquePrefix, waitFor } from '@inv/testing';
import { invoiceConfig } from './config';
import { addDays, interestOf } from './receivables/domain/dunning';
import { createInvoiceService } from './invoice-service';
import { runReminders } from './receivables/usecases/run-reminders';
import { peerBillingSnapshot, servePeerRpcs } from './testing/peer-rpcs';

jest.setTimeout(90_000);

type Json = any;

/**
 * Reminders through the real service: issuing one (PDF rendered by the document-service stand-in and stored, the
 * event published, the e-mail with both PDFs through an SMTP server in the test), the refusals, and the daily run
 * twice at once (one set of proposals, invoice.overdue.v1 once per invoice and due date) and in mode send.
 */
describe('reminders', () => {
  const prefix = uniquePrefix('remind');
  const bucket = 'remind-test';
  let mongo: Awaited<ReturnType<typeof testMongo>>;
  let s3: EmbeddedS3;
  let store: ObjectStore;
  let smtp: SMTPServer;
  let service: Awaited<ReturnType<typeof createInvoiceService>>;
  let url: string;
  let peer: Bus<Messages>;
  const inbox: Buffer[] = [];
  const rendered: Json[] = [];
  const issuedEvents: Json[] = [];
  const overdueEvents: { companyId: string; data: Json }[] = [];
  let clock: Date | undefined;

  const call = async (method: string, path: string, body: unknown, companyId: string) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(await identityHeaders(companyId)) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

  beforeAll(async () => {
    mongo = await testMongo();
    s3 = await startEmbeddedS3();
    store = createObjectStore({ endpoint: s3.endpoint, accessKey: s3.accessKey, secretKey: s3.secretKey, bucket, presignTtlSeconds: 60 });
    await store.ensureBucket();
    smtp = new SMTPServer({
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, _session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          inbox.push(Buffer.concat(chunks));
          callback();
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
    const smtpPort = (smtp as unknown as { server: { address(): AddressInfo } }).server.address().port;

    peer = peerBus(prefix);
    servePeerRpcs(peer, {
      // the buyer has an e-mail address on the invoice (the daily run in mode send writes to it)
      'customer.billing-snapshot.v1': (companyId) => ({
        ...peerBillingSnapshot,
        buyer: { ...peerBillingSnapshot.buyer, contact: { email: 'ap@buyer.example' } },
        ...(companyId === 'cmp_rem_b2b' ? { contactType: 'B2B' as const } : {}),
      }),
    });
    peer.onCommand('document.render-invoice.v1', async (msg) => {
      const { jobId, invoiceId } = msg.data;
      const key = `${msg.companyId}/invoices/${invoiceId}/invoice.pdf`;
      const pdf = Buffer.from(`%PDF-1.7 invoice ${invoiceId}\n%%EOF\n`);
      await store.put(key, pdf, 'application/pdf');
      await peer.publishEvent('document.rendered.v1', msg.companyId, {
        jobId,
        invoiceId,
        pdf: { key, filename: `invoice-${invoiceId}.pdf`, contentType: 'application/pdf', size: pdf.length },
      });
    });
    // document-service's part: stores what it rendered under the key it names
    peer.serveRpc('document.render-reminder.v1', async (msg) => {
      rendered.push(msg.data);
      const key = `${msg.companyId}/invoices/${msg.data.invoiceId}/reminders/${msg.data.reminderId}-${msg.data.level}.pdf`;
      const pdf = Buffer.from(`%PDF-1.7 reminder ${msg.data.reminderId}\n%%EOF\n`);
      await store.put(key, pdf, 'application/pdf');
      return { key, filename: `reminder-${msg.data.invoiceNumber}-${msg.data.level}.pdf`, size: pdf.length };
    });
    peer.serveRpc('document.presign.v1', async (msg) => ({ url: `https://s3.example/${msg.data.key}`, expiresInSeconds: 60 }));
    peer.onEvent('reminder-log', ['invoice.reminder-issued.v1', 'invoice.overdue.v1'], async (msg) => {
      if (msg.type === 'invoice.reminder-issued.v1') issuedEvents.push({ companyId: msg.companyId, ...msg.data });
      else overdueEvents.push({ companyId: msg.companyId, data: msg.data });
    });
    await peer.start();
    service = await createInvoiceService(
      invoiceConfig.parse(
        testEnv(prefix, mongo.uri, {
          S3_ENDPOINT: s3.endpoint,
          S3_BUCKET: bucket,
          SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
          MAIL_FROM: 'Seller GmbH <invoices@seller.example>',
          REMINDER_TICK_MS: '0',
        }),
      ),
    );
    service.deps.now = () => clock ?? new Date();
    url = (await service.start()).url;
  });

  afterAll(async () => {
    await service?.stop();
    await peer?.stop();
    await deleteBrokerObjects(prefix);
    await deleteRedisKeys(`${prefix}:`);
    await new Promise<void>((r) => (smtp ? smtp.close(() => r()) : r()));
    await s3?.stop();
    await mongo?.stop();
  });

  /** A finalized invoice of 238.00 (2 x 100.00 + 19 %), due 14 days after today. */
  const finalized = async (company: string) => {
    const id = (await call('POST', '/invoice/', { customer_id: 1 }, company)).body.invoice_id as number;
    const pos = await call(
      'POST',
      `/invoice/${id}/positions`,
      { title: 'Consulting', quantity: 2, unit_id: 'HUR', unit_net_amount: 100, tax_rate: 0.19 },
      company,
    );
    expect(pos.status).toBe(201);
    expect((await call('POST', `/invoice/${id}/job`, { task: 'process_invoice_flag_invoice_send_job' }, company)).status).toBe(201);
    const inv = await waitFor(
      async () => {
        const got = (await call('GET', `/invoice/${id}`, undefined, company)).body;
        return got.status === 'OPEN' ? got : undefined;
      },
      { what: 'finalized' },
    );
    return { id, number: inv.invoice_number as string, due: inv.due_date as string };
  };
  const at = (day: string) => {
    clock = new Date(`${day}T09:00:00Z`);
  };

  it('issues a reminder: PDF stored, event published, e-mailed with the reminder and the invoice PDF; then the next level with interest', async () => {
    clock = undefined;
    const company = 'cmp_rem';
    const settings = await call('PUT', '/invoice/reminder-settings', { fees: ['0', '5.00', '10.00'] }, company);
    expect(settings.status).toBe(200);
    const inv = await finalized(company);
    expect(inv.due).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    at(addDays(inv.due, 10));
    const first = await call('POST', `/invoice/${inv.id}/reminders`, { send_email: true, to: 'ap@buyer.example' }, company);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      id: 1,
      invoice_id: inv.id,
      level: 1,
      date: addDays(inv.due, 10),
      b2b: false,
      open_amount: 238,
      fee: 0,
      interest: 0, // B2C: not in default before 30 days (or a dunning letter)
      total: 238,
      subject: `Zahlungserinnerung zur Rechnung ${inv.number}`,
      email_id: expect.any(String),
    });
    // the PDF is stored where the renderer put it, and linked
    const req = rendered.at(-1);
    expect(req).toMatchObject({ level: 1, title: 'Zahlungserinnerung', invoiceNumber: inv.number, openAmount: '238.00', total: '238.00' });
    expect((await store.get(`${company}/invoices/${inv.id}/reminders/1-1.pdf`)).toString()).toContain('reminder 1');
    const link = await call('GET', `/invoice/${inv.id}/reminders/1/pdf`, undefined, company);
    expect(link.body).toMatchObject({ url: expect.stringContaining('/reminders/1-1.pdf'), content_type: 'application/pdf' });
    // the event
    await waitFor(() => issuedEvents.find((e) => e.companyId === company && e.reminderId === 1), { what: 'reminder-issued' });
    expect(issuedEvents.find((e) => e.companyId === company && e.reminderId === 1)).toMatchObject({
      invoiceId: inv.id,
      level: 1,
      fee: '0.00',
      interest: '0.00',
      openAmount: '238.00',
      emailed: true,
    });
    // the e-mail, with both PDFs
    const mail = await waitFor(
      async () => {
        for (const raw of inbox) {
          const parsed = await simpleParser(raw);
          if (parsed.subject === `Zahlungserinnerung zur Rechnung ${inv.number}`) return parsed;
        }
        return undefined;
      },
      { what: 'the reminder e-mail', timeoutMs: 20_000 },
    );
    expect(mail.attachments.map((a) => a.filename).sort()).toEqual([`invoice-${inv.id}.pdf`, `reminder-${inv.number}-1.pdf`].sort());
    expect(mail.text).toContain('238,00');

    // level 2, 40 days after the due date: B2C interest from the day after due + 30 to the reminder date, 10 days at
    // 1.27 + 5 = 6.27 %: 238 x 0.0627 x 10 / 365 = 0.408822 -> 0.41 (for dates in 2026/2027: the last rate of the table)
    at(addDays(inv.due, 40));
    const second = await call('POST', `/invoice/${inv.id}/reminders`, { language: 'en' }, company);
    expect(second.status).toBe(201);
    const expected = interestOf('238.00', addDays(inv.due, 31), addDays(inv.due, 40), false).amount;
    expect(second.body).toMatchObject({ level: 2, fee: 5, fees: 5, interest: Number(expected), email_id: null, language: 'en' });
    expect(second.body.interest_periods.reduce((s: number, p: Json) => s + p.days, 0)).toBe(10);
    expect(second.body.total).toBeCloseTo(238 + 5 + Number(expected), 2);
    expect(second.body.subject).toBe(`Overdue notice: invoice ${inv.number}`);
    const list = await call('GET', `/invoice/${inv.id}/reminders`, undefined, company);
    expect(list.body.reminders.map((r: Json) => r.level)).toEqual([1, 2]);
    expect((await call('GET', `/invoice/${inv.id}/reminders`, undefined, 'cmp_other')).status).toBe(404);
  });

  it('refuses drafts, invoices not yet overdue, a level twice, unknown fields, dates too far ahead and unknown placeholders', async () => {
    clock = undefined;
    const company = 'cmp_rem_refuse';
    const draft = (await call('POST', '/invoice/', { customer_id: 1 }, company)).body.invoice_id;
    const d = await call('POST', `/invoice/${draft}/reminders`, {}, company);
    expect([d.status, d.body.code]).toEqual([409, 'INVOICE_NOT_REMINDABLE']);
    const inv = await finalized(company);
    const early = await call('POST', `/invoice/${inv.id}/reminders`, {}, company);
    expect([early.status, early.body.code]).toEqual([409, 'INVOICE_NOT_OVERDUE']);
    at(addDays(inv.due, 8));
    expect((await call('POST', `/invoice/${inv.id}/reminders`, { lvl: 1 }, company)).status).toBe(400);
    const far = await call('POST', `/invoice/${inv.id}/reminders`, { date: addDays(inv.due, 800) }, company);
    expect([far.status, far.body.errors?.[0]?.path]).toEqual([400, 'date']);
    expect((await call('POST', `/invoice/${inv.id}/reminders`, { level: 2 }, company)).status).toBe(201);
    const again = await call('POST', `/invoice/${inv.id}/reminders`, { level: 1 }, company);
    expect([again.status, again.body.code]).toEqual([409, 'REMINDER_LEVEL_ISSUED']);
    const bad = await call('PUT', '/invoice/reminder-settings', { texts: { de: { 1: { body: 'Zahlen Sie {amount}' } } } }, company);
    expect([bad.status, bad.body.errors[0].path]).toEqual([400, 'texts.de.1.body']);
    const unknown = await call('PUT', '/invoice/reminder-settings', { mode: 'sometimes' }, company);
    expect(unknown.status).toBe(400);
    const saved = await call('PUT', '/invoice/reminder-settings', { texts: { en: { 3: { subject: 'Last call: {number}' } } } }, company);
    expect(saved.body.texts.en['3']).toMatchObject({ subject: 'Last call: {number}', is_default: false });
    expect(saved.body.texts.en['2'].is_default).toBe(true);
  });

  it('dates a reminder ahead: interest to that date, worked by hand for a consumer and a business', async () => {
    clock = undefined;
    // 238.00 open. Consumer (cmp_rem_ahead): in default 30 days after the due date, interest from due + 31 to due + 45:
    // 15 days at 1.27 + 5 = 6.27 % (the base rate since 2025-07-01): 238 x 0.0627 x 15 / 365 = 0.613258 -> 0.61
    const consumer = await finalized('cmp_rem_ahead');
    const c = await call('POST', `/invoice/${consumer.id}/reminders`, { date: addDays(consumer.due, 45) }, 'cmp_rem_ahead');
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({ b2b: false, interest: 0.61, interest_from: addDays(consumer.due, 31), total: 238.61 });
    // Business (the customer's type is B2B): from due + 1 to due + 45, 45 days at 1.27 + 9 = 10.27 %:
    // 238 x 0.1027 x 45 / 365 = 3.013471 -> 3.01
    const business = await finalized('cmp_rem_b2b');
    const b = await call('POST', `/invoice/${business.id}/reminders`, { date: addDays(business.due, 45) }, 'cmp_rem_b2b');
    expect(b.status).toBe(201);
    expect(b.body).toMatchObject({ b2b: true, interest: 3.01, interest_from: addDays(business.due, 1), total: 241.01 });
    expect(b.body.interest_periods.reduce((s: number, p: Json) => s + p.days, 0)).toBe(45);
  });

  it('reminds the open amount left after a payment, and refuses a paid invoice', async () => {
    clock = undefined;
    const company = 'cmp_rem_paid';
    const inv = await finalized(company);
    at(addDays(inv.due, 8));
    const pay = (amount: string) =>
      call('POST', `/invoice/${inv.id}/payments`, { amount, date: addDays(inv.due, 8), method: 'BANK_TRANSFER' }, company);
    expect((await pay('38.00')).status).toBe(201);
    const reminded = await call('POST', `/invoice/${inv.id}/reminders`, {}, company);
    expect(reminded.body).toMatchObject({ level: 1, open_amount: 200, total: 200 });
    expect(rendered.at(-1)).toMatchObject({ invoiceTotal: '238.00', openAmount: '200.00', total: '200.00' });
    expect((await pay('200.00')).status).toBe(201);
    const refused = await call('POST', `/invoice/${inv.id}/reminders`, {}, company);
    expect([refused.status, refused.body.code]).toEqual([409, 'INVOICE_ALREADY_PAID']);
  });

  it("lists the company's reminders newest first, with the invoice, paged by cursor and filtered; a paid invoice keeps its own", async () => {
    clock = undefined;
    const company = 'cmp_rem_list';
    const a = await finalized(company);
    const b = await finalized(company);
    at(addDays(a.due, 8));
    expect((await call('POST', `/invoice/${a.id}/reminders`, {}, company)).status).toBe(201); // 1: a, level 1
    expect((await call('POST', `/invoice/${b.id}/reminders`, {}, company)).status).toBe(201); // 2: b, level 1
    at(addDays(a.due, 30));
    expect((await call('POST', `/invoice/${a.id}/reminders`, {}, company)).status).toBe(201); // 3: a, level 2
    // b is paid in full after its reminder: it leaves the overdue list, its reminder stays in this one
    const paid = await call(
      'POST',
      `/invoice/${b.id}/payments`,
      { amount: '238.00', date: addDays(a.due, 30), method: 'BANK_TRANSFER' },
      company,
    );
    expect(paid.status).toBe(201);

    const first = await call('GET', '/invoice/reminders?limit=2', undefined, company);
    expect(first.status).toBe(200);
    expect(first.body.reminders.map((r: Json) => [r.id, r.invoice_id, r.level])).toEqual([
      [3, a.id, 2],
      [2, b.id, 1],
    ]);
    expect(first.body.reminders[0]).toMatchObject({
      invoice_number: a.number,
      customer_id: 1,
      open_amount: 238,
      subject: expect.any(String),
    });
    expect(first.body.next_cursor).toBe('r2');
    const second = await call('GET', `/invoice/reminders?limit=2&cursor=${first.body.next_cursor}`, undefined, company);
    expect(second.body.reminders.map((r: Json) => r.id)).toEqual([1]);
    expect(second.body.next_cursor).toBeNull();

    const level2 = await call('GET', '/invoice/reminders?level=2', undefined, company);
    expect(level2.body.reminders.map((r: Json) => r.id)).toEqual([3]);
    const early = await call('GET', `/invoice/reminders?date_to=${addDays(a.due, 8)}`, undefined, company);
    expect(early.body.reminders.map((r: Json) => r.id)).toEqual([2, 1]);
    const late = await call('GET', `/invoice/reminders?date_from=${addDays(a.due, 9)}`, undefined, company);
    expect(late.body.reminders.map((r: Json) => r.id)).toEqual([3]);

    // another company sees none of them
    expect((await call('GET', '/invoice/reminders', undefined, 'cmp_rem_list_other')).body).toEqual({ reminders: [], next_cursor: null });
    // hostile and mistyped input: 400 naming the parameter
    const typo = await call('GET', '/invoice/reminders?levle=2', undefined, company);
    expect([typo.status, typo.body.code, typo.body.errors[0].message]).toEqual([400, 'UNKNOWN_FIELD', expect.stringContaining('level')]);
    for (const q of [
      'level=4',
      'cursor=r0',
      'cursor=%24where',
      'cursor=r1e9',
      'limit=101',
      'date_from=2025-02-30',
      'date_from=2025-03-02&date_to=2025-03-01',
    ])
      expect([q, (await call('GET', `/invoice/reminders?${q}`, undefined, company)).status]).toEqual([q, 400]);
  });

  it('the daily run twice at once: one set of proposals, invoice.overdue.v1 once per invoice and due date', async () => {
    clock = undefined;
    const company = 'cmp_rem_run';
    expect((await call('PUT', '/invoice/reminder-settings', { mode: 'propose' }, company)).status).toBe(200);
    const a = await finalized(company);
    const b = await finalized(company);
    at(addDays(a.due, 8)); // level 1 is due 7 days after the due date
    const [one, two] = await Promise.all([runReminders(service.deps, 'replica-a'), runReminders(service.deps, 'replica-b')]);
    expect(one.proposed + two.proposed).toBe(2);
    const proposals = (await call('GET', '/invoice/reminder-proposals', undefined, company)).body.proposals;
    expect(proposals.map((p: Json) => [p.invoice_id, p.level]).sort()).toEqual(
      [
        [a.id, 1],
        [b.id, 1],
      ].sort(),
    );
    // the same day again, another replica: the day is done
    expect((await runReminders(service.deps, 'replica-c')).companies).toBe(0);
    // the next day: the company runs again, but nothing is announced or proposed twice
    at(addDays(a.due, 9));
    const next = await runReminders(service.deps, 'replica-a');
    expect([next.overdue, next.proposed]).toEqual([0, 0]);
    await waitFor(() => (overdueEvents.filter((e) => e.companyId === company).length >= 2 ? true : undefined), { what: 'overdue events' });
    await new Promise((r) => setTimeout(r, 500));
    const mine = overdueEvents.filter((e) => e.companyId === company).map((e) => e.data.invoiceId);
    expect(mine.sort()).toEqual([a.id, b.id].sort());
    // issuing the proposed reminder takes the proposal away
    expect((await call('POST', `/invoice/${a.id}/reminders`, {}, company)).status).toBe(201);
    const left = (await call('GET', '/invoice/reminder-proposals', undefined, company)).body.proposals;
    expect(left.map((p: Json) => p.invoice_id)).toEqual([b.id]);
  });

  it('in mode send the daily run issues and e-mails the due reminder to the buyer', async () => {
    clock = undefined;
    const company = 'cmp_rem_send';
    expect((await call('PUT', '/invoice/reminder-settings', { mode: 'send' }, company)).status).toBe(200);
    const inv = await finalized(company);
    at(addDays(inv.due, 7));
    const before = inbox.length;
    const counts = await service.reminderRun.tick();
    expect(counts).toMatchObject({ sent: 1 });
    const list = (await call('GET', `/invoice/${inv.id}/reminders`, undefined, company)).body.reminders;
    expect(list).toEqual([expect.objectContaining({ level: 1, source: 'daily_run', email_id: expect.any(String) })]);
    await waitFor(
      async () => {
        for (const raw of inbox.slice(before))
          if ((await simpleParser(raw)).subject === `Zahlungserinnerung zur Rechnung ${inv.number}`) return true;
        return undefined;
      },
      { what: 'the e-mail of the daily run', timeoutMs: 20_000 },
    );
  });
});
