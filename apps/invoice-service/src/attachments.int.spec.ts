import { createHash } from 'node:crypto';
import archiver from 'archiver';
import type { Bus } from '@inv/bus';
import type { Messages } from '@inv/contracts';
import { startEmbeddedS3, type EmbeddedS3 } from '@inv/objects';
import { deleteBrokerObjects, deleteRedisKeys, identityHeaders, peerBus, testEnv, testMongo, uniquePrefix, waitFor } from '@inv/testing';
import { invoiceConfig } from './config';
import { ATTACHMENT_MAX_BYTES } from './invoices/domain/attachment-rules';
import { createInvoiceService } from './invoice-service';
import { servePeerRpcs } from './testing/peer-rpcs';

jest.setTimeout(90_000);

type Json = any;

/** A ZIP with the given entries (how DOCX and XLSX are built). */
async function zipOf(entries: Record<string, string>): Promise<Buffer> {
  const zip = archiver('zip', { store: true });
  const chunks: Buffer[] = [];
  zip.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((r) => zip.on('end', r));
  for (const [name, body] of Object.entries(entries)) zip.append(body, { name });
  await zip.finalize();
  await done;
  return Buffer.concat(chunks);
}

const pad = (head: Buffer, size = 2048) => Buffer.concat([head, Buffer.alloc(Math.max(0, size - head.length), 0x20)]);

/**
 * Attachments on invoice-service against the real broker, the embedded MongoDB and an embedded S3: the
 * streamed 5 MiB limit, type sniffing, list/link/delete, per-invoice limits, and freezing at finalization
 * (the render command carries them).
 */
describe('invoice attachments', () => {
  const prefix = uniquePrefix('att');
  const company = 'cmp_att';
  let mongo: Awaited<ReturnType<typeof testMongo>>;
  let s3: EmbeddedS3;
  let service: Awaited<ReturnType<typeof createInvoiceService>>;
  let url: string;
  let peer: Bus<Messages>;
  const renderCommands: Json[] = [];
  const changes: Json[] = [];

  const call = async (method: string, path: string, body?: unknown, companyId = company) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(await identityHeaders(companyId)) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const upload = async (invoiceId: number, bytes: Buffer, filename: string, description?: string, companyId = company) => {
    const form = new FormData();
    form.append('file', new Blob([bytes]), filename);
    if (description !== undefined) form.append('description', description);
    const res = await fetch(`${url}/invoice/${invoiceId}/attachments`, {
      method: 'POST',
      headers: await identityHeaders(companyId),
      body: form,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

  beforeAll(async () => {
    mongo = await testMongo();
    s3 = await startEmbeddedS3();
    peer = peerBus(prefix);
    servePeerRpcs(peer);
    peer.onCommand('document.render-invoice.v1', async (msg) => {
      renderCommands.push(msg.data);
      const { jobId, invoiceId } = msg.data;
      await peer.publishEvent('document.rendered.v1', msg.companyId, {
        jobId,
        invoiceId,
        pdf: { key: `${msg.companyId}/invoices/${invoiceId}/i.pdf`, filename: 'i.pdf', contentType: 'application/pdf', size: 10 },
      });
    });
    peer.onEvent('att-audit', ['invoice.changed.v1'], async (msg) => void changes.push(msg.data));
    await peer.start();
    service = await createInvoiceService(
      invoiceConfig.parse(testEnv(prefix, mongo.uri, { S3_ENDPOINT: s3.endpoint, S3_BUCKET: 'att-test' })),
    );
    url = (await service.start()).url;
  });

  afterAll(async () => {
    await service?.stop();
    await peer?.stop();
    await deleteBrokerObjects(prefix);
    await deleteRedisKeys(`${prefix}:`); // the change tokens of the peer data copies
    await s3?.stop();
    await mongo?.stop();
  });

  const draft = async () => {
    const created = await call('POST', '/invoice/', { customer_id: 1, invoice_format: 'ZUGFERD' });
    expect(created.status).toBe(201);
    const id = created.body.invoice_id as number;
    expect(
      (
        await call('POST', `/invoice/${id}/positions`, {
          title: 'Consulting',
          quantity: 1,
          unit_id: 'HUR',
          unit_net_amount: 100,
          tax_rate: 0.19,
        })
      ).status,
    ).toBe(201);
    return id;
  };

  it('stores a PDF with its SHA-256, lists it and serves a presigned link to the same bytes', async () => {
    const id = await draft();
    const pdf = pad(Buffer.from('%PDF-1.7\n% terms and conditions\n'));
    const res = await upload(id, pdf, '../../etc/AGB März:2026.pdf', 'Allgemeine Geschäftsbedingungen');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      filename: 'AGB März2026.pdf',
      content_type: 'application/pdf',
      size: pdf.length,
      description: 'Allgemeine Geschäftsbedingungen',
    });
    expect(res.body.sha256).toBe(createHash('sha256').update(pdf).digest('hex'));
    const list = await call('GET', `/invoice/${id}/attachments`);
    expect(list.body.attachments).toEqual([expect.objectContaining({ id: res.body.id, sha256: res.body.sha256 })]);
    const link = await call('GET', `/invoice/${id}/attachments/${res.body.id}`);
    expect(link.body).toMatchObject({ url: expect.any(String), filename: 'AGB März2026.pdf', content_type: 'application/pdf' });
    const got = Buffer.from(await (await fetch(link.body.url)).arrayBuffer());
    expect(got.equals(pdf)).toBe(true);
    expect((await call('GET', `/invoice/${id}/attachments`, undefined, 'cmp_other')).status).toBe(404);
    expect((await call('GET', `/invoice/${id}/attachments/${res.body.id}`, undefined, 'cmp_other')).status).toBe(404);
  });

  it('accepts exactly 5 MiB and cuts 5 MiB + 1 byte with 413, storing nothing', async () => {
    const id = await draft();
    const exact = pad(Buffer.from('%PDF-1.7\n'), ATTACHMENT_MAX_BYTES);
    expect((await upload(id, exact, 'exact.pdf')).status).toBe(201);
    const over = pad(Buffer.from('%PDF-1.7\n'), ATTACHMENT_MAX_BYTES + 1);
    const res = await upload(id, over, 'over.pdf');
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('ATTACHMENT_TOO_LARGE');
    expect((await call('GET', `/invoice/${id}/attachments`)).body.attachments).toHaveLength(1);
  });

  it('sniffs the type from the content: images and office files in, executables, HTML and bare ZIPs out (415 naming what it found)', async () => {
    const id = await draft();
    const docx = await zipOf({ '[Content_Types].xml': '<Types/>', 'word/document.xml': '<w:document/>' });
    const xlsx = await zipOf({ '[Content_Types].xml': '<Types/>', 'xl/workbook.xml': '<workbook/>' });
    const bomb = await zipOf({ 'a.txt': 'x'.repeat(10_000) });
    const accepted: [string, Buffer, string][] = [
      ['scan.png', pad(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])), 'image/png'],
      ['photo.jpeg', pad(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0])), 'image/jpeg'],
      ['anim.gif', pad(Buffer.from('GIF89a')), 'image/gif'],
      ['pic.webp', pad(Buffer.concat([Buffer.from('RIFF'), Buffer.from([0, 8, 0, 0]), Buffer.from('WEBPVP8 ')])), 'image/webp'],
      ['fax.tiff', pad(Buffer.from([0x49, 0x49, 0x2a, 0x00, 0x08, 0, 0, 0])), 'image/tiff'],
      ['offer.docx', docx, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      ['prices.xlsx', xlsx, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ];
    for (const [name, bytes, type] of accepted) {
      const res = await upload(id, bytes, name);
      expect([name, res.status, res.body.content_type]).toEqual([name, 201, type]);
    }
    const refused: [string, Buffer, RegExp][] = [
      ['invoice.pdf', pad(Buffer.concat([Buffer.from('MZ'), Buffer.alloc(0x3c), Buffer.from('PE\0\0')])), /application\/x-msdownload|exe/],
      ['page.pdf', Buffer.from('<!doctype html><html><body>hi</body></html>'), /no known binary format/],
      ['bomb.docx', bomb, /application\/zip/],
    ];
    for (const [name, bytes, found] of refused) {
      const res = await upload(id, bytes, name);
      expect([name, res.status, res.body.code]).toEqual([name, 415, 'UNSUPPORTED_ATTACHMENT_TYPE']);
      expect(res.body.message).toMatch(found);
    }
    expect((await call('GET', `/invoice/${id}/attachments`)).body.attachments).toHaveLength(accepted.length);
  });

  it('answers 400 without a file field, and refuses the 21st attachment (409)', async () => {
    const id = await draft();
    const form = new FormData();
    form.append('description', 'no file');
    const res = await fetch(`${url}/invoice/${id}/attachments`, { method: 'POST', headers: await identityHeaders(company), body: form });
    expect(res.status).toBe(400);
    const notMultipart = await call('POST', `/invoice/${id}/attachments`, { file: 'x' });
    expect(notMultipart.status).toBe(400);
    const small = pad(Buffer.from('%PDF-1.7\n'), 100);
    for (let i = 0; i < 20; i++) expect((await upload(id, small, `p${i}.pdf`)).status).toBe(201);
    const over = await upload(id, small, 'p21.pdf');
    expect([over.status, over.body.code]).toEqual([409, 'ATTACHMENT_LIMIT_REACHED']);
  });

  it('holds 20 attachments per invoice under 30 parallel uploads: exactly 20 stored, 10 answered 409; a delete frees a place', async () => {
    const id = await draft();
    const small = pad(Buffer.from('%PDF-1.7\n'), 1000);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => upload(id, small, `race-${i}.pdf`)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    expect(answers.filter((a) => a.status !== 201).map((a) => [a.status, a.body.code])).toEqual(
      Array.from({ length: 10 }, () => [409, 'ATTACHMENT_LIMIT_REACHED']),
    );
    const listed = (await call('GET', `/invoice/${id}/attachments`)).body.attachments;
    expect(listed).toHaveLength(20);
    const usage = await service.runtime.conn.collection('attachment_usage').findOne({ _id: `${company}:${id}` as never });
    expect([usage?.count, usage?.bytes]).toEqual([20, 20 * 1000]);
    expect((await call('DELETE', `/invoice/${id}/attachments/${listed[0].id}`)).status).toBe(200);
    const again = await Promise.all([upload(id, small, 'again-1.pdf'), upload(id, small, 'again-2.pdf')]);
    expect(again.map((a) => a.status).sort()).toEqual([201, 409]);
  });

  it('holds 25 MiB per invoice under 8 parallel 5 MiB uploads: 5 stored (25 MiB), 3 answered 413', async () => {
    const id = await draft();
    const five = pad(Buffer.from('%PDF-1.7\n'), ATTACHMENT_MAX_BYTES);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => upload(id, five, `big-${i}.pdf`)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(5);
    expect(answers.filter((a) => a.status !== 201).map((a) => [a.status, a.body.code])).toEqual(
      Array.from({ length: 3 }, () => [413, 'ATTACHMENT_QUOTA_EXCEEDED']),
    );
    const listed = (await call('GET', `/invoice/${id}/attachments`)).body.attachments as { size: number }[];
    const total = listed.reduce((sum, a) => sum + a.size, 0);
    expect(total).toBe(5 * ATTACHMENT_MAX_BYTES);
    expect(total).toBeLessThanOrEqual(25 * 1024 * 1024);
  });

  it('counts the attachments an invoice had before the usage document existed', async () => {
    const id = await draft();
    const records = service.runtime.conn.collection('attachments');
    const base = 900_000 + id * 100;
    await records.insertMany(
      Array.from({ length: 19 }, (_, i) => ({
        _id: (base + i) as never,
        companyId: company,
        invoiceId: id,
        filename: `old-${i}.pdf`,
        contentType: 'application/pdf',
        size: 10,
        sha256: 'x',
        key: `old/${i}`,
        createdAt: new Date(),
      })),
    );
    const small = pad(Buffer.from('%PDF-1.7\n'), 100);
    const both = await Promise.all([upload(id, small, 'one.pdf'), upload(id, small, 'two.pdf'), upload(id, small, 'three.pdf')]);
    expect(both.map((a) => a.status).sort()).toEqual([201, 409, 409]);
    expect(await records.countDocuments({ companyId: company, invoiceId: id })).toBe(20);
  });

  it('strips bidirectional overrides and controls from file names and serves a link for any name (no 500)', async () => {
    const id = await draft();
    const pdf = pad(Buffer.from('%PDF-1.7\n'));
    const spoof = await upload(id, pdf, 'rechnung\u202Egpj.pdf');
    expect(spoof.status).toBe(201);
    expect(spoof.body.filename).toBe('rechnunggpj.pdf');
    const isolates = await upload(id, pdf, '\u2066Angebot\u2069\u200f.pdf');
    expect(isolates.body.filename).toBe('Angebot\u200f.pdf');
    for (const [a, name] of [
      [spoof.body, 'rechnunggpj.pdf'],
      [(await upload(id, pdf, '請求書 März €.pdf')).body, '請求書 März €.pdf'],
    ] as const) {
      const link = await call('GET', `/invoice/${id}/attachments/${a.id}`);
      expect([link.status, link.body.filename]).toEqual([200, name]);
      const got = await fetch(link.body.url);
      expect(got.status).toBe(200);
      const disposition = got.headers.get('content-disposition')!;
      expect(disposition).toMatch(/^attachment; filename="[\x20-\x7e]+"/);
      if (!/^[\x20-\x7e]+$/.test(name)) expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent(name)}`);
      await got.arrayBuffer();
    }
    const badDescription = await upload(id, pdf, 'ok.pdf', 'Terms\u202Esmret');
    expect([badDescription.status, badDescription.body.errors]).toEqual([
      400,
      [{ path: 'description', message: expect.stringContaining('U+202E') }],
    ]);
    expect((await upload(id, pdf, 'ok.pdf', 'line 1\r\nline 2')).body.description).toBe('line 1\nline 2');
  });

  it('says in the validation result which attachments the e-invoice XML cannot carry', async () => {
    const created = await call('POST', '/invoice/', { customer_id: 1, invoice_format: 'PEPPOL' });
    const id = created.body.invoice_id as number;
    await call('POST', `/invoice/${id}/positions`, {
      title: 'Consulting',
      quantity: 1,
      unit_id: 'HUR',
      unit_net_amount: 100,
      tax_rate: 0.19,
    });
    await upload(id, pad(Buffer.from('%PDF-1.7\n')), 'terms.pdf');
    await upload(id, pad(Buffer.from('GIF89a')), 'anim.gif');
    const v = (await call('GET', `/invoice/${id}/validate`)).body;
    expect(v.warnings).toEqual([
      { field: 'attachments', rule: 'ATTACHMENT_NOT_IN_XML', message: expect.stringMatching(/^anim\.gif: image\/gif may not be embedded/) },
    ]);
    expect(v.checks).toContain('attachments');
  });

  it('deletes from a draft; finalization freezes them and hands them to rendering', async () => {
    const id = await draft();
    const a = (await upload(id, pad(Buffer.from('%PDF-1.7\n')), 'keep.pdf')).body;
    const b = (await upload(id, pad(Buffer.from('GIF89a')), 'drop.gif')).body;
    const link = (await call('GET', `/invoice/${id}/attachments/${b.id}`)).body.url;
    expect((await call('DELETE', `/invoice/${id}/attachments/${b.id}`)).status).toBe(200);
    expect((await fetch(link)).status).toBe(404);
    expect((await call('DELETE', `/invoice/${id}/attachments/${b.id}`)).status).toBe(404);
    const job = await call('POST', `/invoice/${id}/job`, { task: 'process_invoice_flag_invoice_send_job' });
    expect(job.status).toBe(201);
    await waitFor(async () => ((await call('GET', `/invoice/${id}`)).body.status === 'OPEN' ? true : undefined), { what: 'finalized' });
    const cmd = renderCommands.find((c) => c.invoiceId === id);
    expect(cmd.attachments).toEqual([
      {
        id: a.id,
        key: expect.stringContaining(`${company}/invoices/${id}/attachments/`),
        filename: 'keep.pdf',
        contentType: 'application/pdf',
        size: a.size,
      },
    ]);
    expect((await upload(id, pad(Buffer.from('%PDF-1.7\n')), 'late.pdf')).status).toBe(409);
    expect((await call('DELETE', `/invoice/${id}/attachments/${a.id}`)).status).toBe(409);
    expect((await call('GET', `/invoice/${id}/attachments`)).body.attachments).toHaveLength(1);
    // the audit events, written with each change (the record and its event in one transaction), none for the refused ones
    const ofThis = async () => {
      const mine = changes.filter((c) => c.invoiceId === id && String(c.action).startsWith('attachment_'));
      return mine.length >= 3 ? mine : undefined;
    };
    const events = await waitFor(ofThis, { what: 'attachment events' });
    expect(events.map((c: Json) => [c.action, c.attachmentId])).toEqual([
      ['attachment_added', a.id],
      ['attachment_added', b.id],
      ['attachment_deleted', b.id],
    ]);
  });
});
