import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { Bus } from '@inv/bus';
import { asCompanyId, testTwinOf, type Messages } from '@inv/contracts';
import { createObjectStore, startEmbeddedS3, type EmbeddedS3 } from '@inv/objects';
import { deleteBrokerObjects, deleteRedisKeys, identityHeaders, peerBus, testEnv, testMongo, uniquePrefix, waitFor } from '@inv/testing';
import { invoiceConfig } from './config';
import { createInvoiceService } from './invoice-service';
import { peerSellerProfile, servePeerRpcs } from './testing/peer-rpcs';

jest.setTimeout(90_000);

type Json = any;
interface Received {
  from: string;
  rcpt: string[];
  raw: Buffer;
}

/**
 * Invoice e-mail through a real SMTP server in the test (smtp-server), parsed with mailparser: headers,
 * envelope (BCC only there), the PDF and XML byte-equal to the stored ones; temporary failures retried,
 * permanent ones recorded with the server's answer; a redelivered send command never sends twice.
 */
describe('invoice e-mail', () => {
  const prefix = uniquePrefix('mail');
  const company = 'cmp_mail';
  const twin = testTwinOf(asCompanyId(company));
  const bucket = 'mail-test';
  let mongo: Awaited<ReturnType<typeof testMongo>>;
  let s3: EmbeddedS3;
  let smtp: SMTPServer;
  let service: Awaited<ReturnType<typeof createInvoiceService>>;
  let url: string;
  let peer: Bus<Messages>;
  const inbox: Received[] = [];
  let behaviour: 'ok' | 'temporary-once' | 'permanent' = 'ok';
  let attempts = 0;
  const pdfOf = (id: number) => Buffer.from(`%PDF-1.7 invoice ${id}\n%%EOF\n`);
  const xmlOf = (id: number) => Buffer.from(`<?xml version="1.0"?><rsm:CrossIndustryInvoice id="${id}"/>`);

  const callAs = async (method: string, path: string, body?: unknown, companyId = company) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(await identityHeaders(companyId)) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const call = callAs;

  beforeAll(async () => {
    mongo = await testMongo();
    s3 = await startEmbeddedS3();
    const store = createObjectStore({
      endpoint: s3.endpoint,
      accessKey: s3.accessKey,
      secretKey: s3.secretKey,
      bucket,
      presignTtlSeconds: 60,
    });
    await store.ensureBucket();
    smtp = new SMTPServer({
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          attempts++;
          if (behaviour === 'permanent')
            return callback(Object.assign(new Error('5.7.1 Message rejected: policy violation'), { responseCode: 550 }));
          if (behaviour === 'temporary-once' && attempts === 1)
            return callback(Object.assign(new Error('4.3.0 Try again later'), { responseCode: 451 }));
          inbox.push({
            from: (session.envelope.mailFrom as { address: string }).address,
            rcpt: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks),
          });
          callback();
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
    const smtpPort = (smtp as unknown as { server: { address(): AddressInfo } }).server.address().port;

    peer = peerBus(prefix);
    servePeerRpcs(peer, {
      'account.seller-profile.v1': () => ({
        ...peerSellerProfile,
        seller: { ...peerSellerProfile.seller, contact: { email: 'billing@seller.example' } },
      }),
    });
    peer.onCommand('document.render-invoice.v1', async (msg) => {
      const { jobId, invoiceId } = msg.data;
      const base = `${msg.companyId}/invoices/${invoiceId}`;
      await store.put(`${base}/invoice.pdf`, pdfOf(invoiceId), 'application/pdf');
      await store.put(`${base}/factur-x.xml`, xmlOf(invoiceId), 'application/xml');
      await peer.publishEvent('document.rendered.v1', msg.companyId, {
        jobId,
        invoiceId,
        pdf: {
          key: `${base}/invoice.pdf`,
          filename: `invoice-${invoiceId}.pdf`,
          contentType: 'application/pdf',
          size: pdfOf(invoiceId).length,
        },
        xml: {
          key: `${base}/factur-x.xml`,
          filename: `invoice-${invoiceId}.xml`,
          contentType: 'application/xml',
          size: xmlOf(invoiceId).length,
        },
      });
    });
    await peer.start();
    service = await createInvoiceService(
      invoiceConfig.parse(
        testEnv(prefix, mongo.uri, {
          S3_ENDPOINT: s3.endpoint,
          S3_BUCKET: bucket,
          SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
          MAIL_FROM: 'Seller GmbH <invoices@seller.example>',
          // these tests are about SMTP, not about who may be a recipient (email-limits.int.spec.ts)
          EMAIL_FREE_RECIPIENTS: `${company},${twin}`,
        }),
      ),
    );
    url = (await service.start()).url;
  });

  afterAll(async () => {
    await service?.stop();
    await peer?.stop();
    await deleteBrokerObjects(prefix);
    await deleteRedisKeys(`${prefix}:`); // the change tokens of the peer data copies
    await new Promise<void>((r) => (smtp ? smtp.close(() => r()) : r()));
    await s3?.stop();
    await mongo?.stop();
  });

  const finalized = async (companyId = company) => {
    const call = (method: string, path: string, body?: unknown) => callAs(method, path, body, companyId);
    const id = (await call('POST', '/invoice/', { customer_id: 1, invoice_format: 'ZUGFERD' })).body.invoice_id as number;
    expect(
      (
        await call('POST', `/invoice/${id}/positions`, {
          title: 'Consulting',
          quantity: 2,
          unit_id: 'HUR',
          unit_net_amount: 100,
          tax_rate: 0.19,
        })
      ).status,
    ).toBe(201);
    expect((await call('POST', `/invoice/${id}/job`, { task: 'process_invoice_flag_invoice_send_job' })).status).toBe(201);
    await waitFor(async () => ((await call('GET', `/invoice/${id}`)).body.status === 'OPEN' ? true : undefined), { what: 'finalized' });
    return id;
  };
  const settled = (id: number, emailId: string) =>
    waitFor(
      async () => {
        const e = (await call('GET', `/invoice/${id}/emails`)).body.emails.find((x: Json) => x.id === emailId);
        return e && e.status !== 'queued' ? e : undefined;
      },
      { timeoutMs: 20_000, what: 'the e-mail to settle' },
    );

  it("records a test twin's e-mail with its content instead of handing it to SMTP, and marks the invoice SENT", async () => {
    behaviour = 'ok';
    const before = inbox.length;
    const id = await finalized(twin);
    const sent = await callAs('POST', `/invoice/${id}/send_email`, { to: 'ap@buyer.example', cc: ['cfo@buyer.example'] }, twin);
    expect(sent.status).toBe(202);
    const emailId = sent.body.email_id as string;
    const record = await waitFor(
      async () => {
        const e = (await callAs('GET', `/invoice/${id}/emails`, undefined, twin)).body.emails.find((x: Json) => x.id === emailId);
        return e && e.status !== 'queued' ? e : undefined;
      },
      { timeoutMs: 20_000, what: 'the test e-mail to settle' },
    );
    expect(record).toMatchObject({ error: null, status: 'sent', to: ['ap@buyer.example'], cc: ['cfo@buyer.example'] });
    expect(inbox.length).toBe(before); // nothing reached the mail server
    expect((await callAs('GET', `/invoice/${id}`, undefined, twin)).body.status).toBe('SENT');
    const list = await callAs('GET', '/test-mails/', undefined, twin);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 1, page: 1 });
    const mail = list.body.test_mails[0];
    expect(mail).toMatchObject({
      id: emailId,
      subject_ref: `invoice:${id}`,
      from: 'Seller GmbH <invoices@seller.example>',
      reply_to: 'billing@seller.example',
      to: ['ap@buyer.example'],
      cc: ['cfo@buyer.example'],
      bcc: [],
      attachments: [
        { filename: `invoice-${id}.pdf`, content_type: 'application/pdf' },
        { filename: `invoice-${id}.xml`, content_type: 'application/xml' },
      ],
    });
    expect(mail.subject).toMatch(/^Rechnung RE-/);
    expect(mail.text).toContain('über 238,00');
    expect((await callAs('GET', `/test-mails/${emailId}`, undefined, twin)).body).toEqual(mail);
    // the live company has no recorded mails and is told so; the twin's mail is not the live company's
    expect((await call('GET', '/test-mails/')).status).toBe(403);
    expect((await callAs('GET', `/test-mails/${emailId}`, undefined, twin)).status).toBe(200);
    expect((await callAs('GET', '/test-mails/00000000-0000-4000-8000-000000000000', undefined, twin)).status).toBe(404);
    // hostile and mistyped input: a clear 400, never a 500
    expect((await callAs('GET', '/test-mails/not-an-id', undefined, twin)).status).toBe(400);
    expect((await callAs('GET', '/test-mails/?limt=5', undefined, twin)).status).toBe(400);
    expect((await callAs('GET', '/test-mails/?limit=100000', undefined, twin)).status).toBe(400);
    expect((await callAs('GET', `/test-mails/${'%E2%80%AE'.repeat(50)}`, undefined, twin)).status).toBe(400);
  });

  it('sends the invoice with PDF and XML byte-equal to the stored ones, BCC only in the envelope, and marks it SENT', async () => {
    behaviour = 'ok';
    const id = await finalized();
    const sent = await call('POST', `/invoice/${id}/send_email`, {
      to: 'ap@buyer.example',
      cc: ['cfo@buyer.example'],
      bcc: ['archive@seller.example'],
    });
    expect(sent.status).toBe(202);
    expect(sent.body).toEqual({ message: expect.any(String), email_id: expect.any(String) });
    const record = await settled(id, sent.body.email_id);
    expect(record).toMatchObject({
      status: 'sent',
      to: ['ap@buyer.example'],
      cc: ['cfo@buyer.example'],
      bcc: ['archive@seller.example'],
      message_id: `<${sent.body.email_id}@invoicing.mail>`,
      error: null,
    });
    const mail = inbox.at(-1)!;
    expect(mail.rcpt.sort()).toEqual(['ap@buyer.example', 'archive@seller.example', 'cfo@buyer.example']);
    expect(mail.from).toBe('invoices@seller.example');
    const parsed = await simpleParser(mail.raw);
    expect(parsed.subject).toMatch(/^Rechnung RE-/);
    expect(parsed.text).toContain('über 238,00');
    expect(parsed.headers.get('bcc')).toBeUndefined();
    expect(mail.raw.toString('latin1')).not.toMatch(/archive@seller\.example/);
    expect((parsed.replyTo as Json).value[0].address).toBe('billing@seller.example');
    const files = Object.fromEntries(parsed.attachments.map((a) => [a.filename, a.content]));
    expect(files[`invoice-${id}.pdf`]!.equals(pdfOf(id))).toBe(true);
    expect(files[`invoice-${id}.xml`]!.equals(xmlOf(id))).toBe(true);
    expect((await call('GET', `/invoice/${id}`)).body.status).toBe('SENT');
  });

  it('retries a temporary SMTP failure and records a permanent one with the server answer', async () => {
    const id = await finalized();
    behaviour = 'temporary-once';
    attempts = 0;
    const first = await call('POST', `/invoice/${id}/send_email`, { to: ['ap@buyer.example'], language: 'en', attach_xml: false });
    expect(await settled(id, first.body.email_id)).toMatchObject({ status: 'sent', subject: expect.stringMatching(/^Invoice RE-/) });
    expect(attempts).toBe(2);
    behaviour = 'permanent';
    const second = await call('POST', `/invoice/${id}/send_email`, { to: ['ap@buyer.example'] });
    const failed = await settled(id, second.body.email_id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/550.*policy violation/);
    behaviour = 'ok';
  });

  it('never sends twice when the send command is delivered again, and the repeated report parks nothing', async () => {
    behaviour = 'ok';
    const id = await finalized();
    const sent = await call('POST', `/invoice/${id}/send_email`, { to: 'ap@buyer.example', subject: 'Your invoice', message: 'Hello' });
    await settled(id, sent.body.email_id);
    const before = inbox.length;
    await peer.sendCommand('mail.send.v1', company, {
      emailId: sent.body.email_id,
      subjectRef: `invoice:${id}`,
      from: 'x@seller.example',
      to: ['ap@buyer.example'],
      cc: [],
      bcc: [],
      subject: 'again',
      text: 'again',
      attachments: [],
    });
    // a second message after the repeat: once it arrived, the repeat was handled (commands are consumed in order)
    await peer.sendCommand('mail.send.v1', company, {
      emailId: `probe-${sent.body.email_id}`,
      subjectRef: 'probe',
      from: 'x@seller.example',
      to: ['probe@buyer.example'],
      cc: [],
      bcc: [],
      subject: 'probe',
      text: 'probe',
      attachments: [],
    });
    await waitFor(() => (inbox.some((m) => m.rcpt.includes('probe@buyer.example')) ? true : undefined), {
      what: 'the probe (sent after the repeat)',
    });
    expect(inbox.slice(before).map((m) => m.rcpt[0])).toEqual(['probe@buyer.example']);
    const parsed = await simpleParser(inbox[before - 1]!.raw);
    expect([parsed.subject, parsed.text?.trim()]).toEqual(['Your invoice', 'Hello']);
    // the repeat reported mail-sent-<id> again: already in the outbox (E11000), i.e. already recorded; before, every
    // repeat failed on it through the retries (50 + 100 ms here) into the parking queue
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await service.runtime.bus.parkedMessages('mail.send.v1')).toEqual([]);
  });

  it("uses the company's own texts, refuses unknown placeholders and resets to the defaults", async () => {
    behaviour = 'ok';
    // control characters and bidirectional overrides are refused like in every other name and text
    for (const subject of ['Invoice \u202e{number}', 'Invoice\r\nBcc: x@evil.example', 'Invoice \u0000'])
      expect(await call('PUT', '/invoice/email-texts', { de: { subject } })).toMatchObject({
        status: 400,
        body: { code: 'VALIDATION_ERROR' },
      });
    expect(await call('PUT', '/invoice/email-texts', { en: { body: 'Pay \u202d{total}' } })).toMatchObject({ status: 400 });
    const bad = await call('PUT', '/invoice/email-texts', { en: { body: 'Please pay {amount}' } });
    expect([bad.status, bad.body.errors[0].path]).toEqual([400, 'en.body']);
    const saved = await call('PUT', '/invoice/email-texts', {
      en: { subject: 'Your {document} {number} from {seller}', body: 'Hello {customer},\n{total}{due_date}.' },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.en).toMatchObject({ is_default: false });
    expect(saved.body.de).toMatchObject({ is_default: true });
    const id = await finalized();
    const sent = await call('POST', `/invoice/${id}/send_email`, { to: 'ap@buyer.example', language: 'en' });
    await settled(id, sent.body.email_id);
    const parsed = await simpleParser(inbox.at(-1)!.raw);
    expect(parsed.subject).toMatch(/^Your invoice RE-\d{4}-\d+ from Seller GmbH$/);
    expect(parsed.text).toMatch(/^Hello Buyer AG,\n€238\.00, payable by \d{1,2} [A-Z][a-z]{2} \d{4}\./);
    expect((await call('DELETE', '/invoice/email-texts')).body.en.is_default).toBe(true);
    expect((await call('GET', '/invoice/email-texts', undefined, 'cmp_other')).body.en.is_default).toBe(true);
  });

  it('refuses to start in production without SMTP_URL', async () => {
    const config = invoiceConfig.parse({ ...testEnv(prefix, mongo.uri), NODE_ENV: 'production' });
    await expect(createInvoiceService(config)).rejects.toThrow(/SMTP_URL is not set/);
  });

  it('answers 400 naming a bad address or attachment, 400 for too many recipients, 409 for a draft', async () => {
    const id = await finalized();
    const bad = await call('POST', `/invoice/${id}/send_email`, { to: ['ok@buyer.example', 'not-an-address'] });
    expect([bad.status, bad.body.errors[0].path]).toEqual([400, 'to.1']);
    const many = await call('POST', `/invoice/${id}/send_email`, {
      to: Array.from({ length: 6 }, (_, i) => `a${i}@b.example`),
      cc: Array.from({ length: 5 }, (_, i) => `c${i}@b.example`),
    });
    expect(many.status).toBe(400);
    const missing = await call('POST', `/invoice/${id}/send_email`, { to: 'ok@buyer.example', attachment_ids: [999999] });
    expect([missing.status, missing.body.errors[0].path]).toEqual([400, 'attachment_ids.0']);
    expect((await call('POST', `/invoice/${id}/send_email`, {})).status).toBe(400);
    const draft = (await call('POST', '/invoice/', { customer_id: 1 })).body.invoice_id;
    const refused = await call('POST', `/invoice/${draft}/send_email`, { to: 'ok@buyer.example' });
    expect([refused.status, refused.body.code]).toEqual([409, 'INVOICE_NOT_SENDABLE']);
    expect((await call('GET', `/invoice/${id}/emails`, undefined, 'cmp_other')).status).toBe(404);
  });
});
