import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import fc from 'fast-check';
import { Agent, fetch as undiciFetch, FormData as UndiciFormData } from 'undici';
import { PDFDocument, PDFName, PDFString } from 'pdf-lib';
import { startEmbeddedS3, type EmbeddedS3 } from '@inv/objects';
import type { Bus } from '@inv/bus';
import type { Messages } from '@inv/contracts';
import { deleteBrokerObjects, identityHeaders, peerBus, testEnv, testMongo, uniquePrefix, waitFor } from '@inv/testing';
import { inboundConfig } from './config';
import { createInboundService } from './inbound-service';
import { defaultKitDir } from './inspection/conformance-kit';

jest.setTimeout(600_000);

const KIT = process.env.INBOUND_CONFORMANCE_DIR ?? defaultKitDir();
const XR_UBL = readFileSync(join(KIT, 'xrechnung/examples/01.01a-INVOICE_ubl.xml'));
const CII = readFileSync(join(KIT, 'en16931/cii/examples/CII_example1.xml'));
const PEPPOL_CN = readFileSync(join(KIT, 'peppol/examples/base-creditnote-correction.xml'));

async function facturX(xml: Buffer, name = 'factur-x.xml'): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.addPage();
  await pdf.attach(xml, name, { mimeType: 'text/xml', description: 'Factur-X invoice' });
  return Buffer.from(await pdf.save());
}

describe('inbound-service over HTTP', () => {
  const prefix = uniquePrefix();
  let mongo: Awaited<ReturnType<typeof testMongo>>;
  let s3: EmbeddedS3;
  let service: Awaited<ReturnType<typeof createInboundService>>;
  let base: string;
  let peer: Bus<Messages>;
  const events: { type: string; companyId: string; id: string; data: any }[] = [];
  const renders: { companyId: string; data: any }[] = [];
  /** supplier.changed.v1 as the audit log receives it. */
  const supplierChanges: { companyId: string; data: { supplierId: number; action: string; fields: string[] } }[] = [];

  beforeAll(async () => {
    mongo = await testMongo();
    s3 = await startEmbeddedS3();
    service = await createInboundService(
      inboundConfig.parse(
        testEnv(prefix, mongo.uri, {
          S3_ENDPOINT: s3.endpoint,
          S3_ACCESS_KEY: s3.accessKey,
          S3_SECRET_KEY: s3.secretKey,
          S3_BUCKET: `${prefix}-inbound`,
          INBOUND_CONFORMANCE_DIR: KIT,
        }),
      ),
    );
    base = (await service.start()).url;
    // plays document-service (its renderer is tested there and in the e2e) and listens to what inbound-service announces
    peer = peerBus(prefix);
    peer.onEvent('inbound-events', ['inbound.received.v1', 'inbound.deleted.v1'], async (msg) => {
      events.push({ type: msg.type, companyId: msg.companyId, id: msg.id, data: msg.data });
    });
    peer.onEvent('supplier-events', ['supplier.changed.v1'], async (msg) => {
      supplierChanges.push({ companyId: msg.companyId, data: msg.data });
    });
    peer.serveRpc('document.render-received.v1', async (msg) => {
      renders.push({ companyId: msg.companyId, data: msg.data });
      const pdf = Buffer.from(`%PDF-1.7 view of ${msg.data.content.number} in ${msg.data.language}`);
      await service.deps.objects.put(msg.data.key, pdf, 'application/pdf');
      return { key: msg.data.key, filename: 'view.pdf', contentType: 'application/pdf', size: pdf.length };
    });
    await peer.start();
  });
  afterAll(async () => {
    await peer?.stop();
    await service?.stop();
    await s3?.stop();
    await deleteBrokerObjects(prefix);
    await mongo?.stop();
  });

  // one connection per request: a refusal before the body is read closes its connection, and a pooled
  // connection could be handed to the next request while the server closes it (ECONNRESET)
  const noKeepAlive = new Agent({ pipelining: 0 });
  afterAll(() => noKeepAlive.close());
  const send = async (
    companyId: string,
    method: string,
    path: string,
    body?: string | Buffer | UndiciFormData,
    contentType?: string,
    role?: string,
  ) => {
    const res = await undiciFetch(`${base}${path}`, {
      dispatcher: noKeepAlive,
      method,
      headers: { ...(contentType ? { 'content-type': contentType } : {}), ...(await identityHeaders(companyId, { role })) },
      body,
    });
    const text = await res.text();
    return {
      status: res.status,
      type: res.headers.get('content-type') ?? '',
      headers: res.headers,
      body: (text ? JSON.parse(text) : undefined) as any,
    };
  };

  /** POST /inbound/: 202 with the job (its id is the document's), long-polled to its end; answers the job and the document. */
  const receive = async (companyId: string, body: string | Buffer | UndiciFormData, contentType?: string) => {
    const accepted = await send(companyId, 'POST', '/inbound/', body, contentType);
    expect({ status: accepted.status, body: accepted.body }).toEqual({
      status: 202,
      body: expect.objectContaining({
        task: 'receive_inbound_document',
        status: expect.stringMatching(/^(queued|started|finished|failed)$/),
      }),
    });
    const id = accepted.body.document_id as number;
    expect(accepted.body.id).toBe(id);
    expect(accepted.headers.get('location')).toBe(`/api/v1/inbound/${id}/job`);
    let job = accepted.body;
    while (job.status === 'queued' || job.status === 'started') job = (await send(companyId, 'GET', `/inbound/${id}/job?wait=25`)).body;
    return { id, accepted: accepted.body, job, doc: (await send(companyId, 'GET', `/inbound/${id}`)).body };
  };

  it('receives an XRechnung UBL: 202 with a job, long-polled to finished, the reading stored per company from id 1, listed, fetched and deleted', async () => {
    const { job, doc, accepted } = await receive('cmp_a', XR_UBL, 'application/xml');
    expect(accepted).toMatchObject({
      id: 1,
      document_id: 1,
      links: { self: '/api/v1/inbound/1/job', document: '/api/v1/inbound/1', pdf: '/api/v1/inbound/1/pdf' },
    });
    expect(job).toMatchObject({ id: 1, status: 'finished', finished_at: expect.any(String), started_at: expect.any(String) });
    const created = { body: doc };
    expect(created.body).toMatchObject({
      id: 1,
      status: 'RECEIVED',
      valid: true,
      format: 'xrechnung-ubl',
      profile: 'XRechnung 3.0',
      version: '3.0',
      document_type: 'INVOICE',
      media_type: 'application/xml',
      content: {
        number: '123456XX',
        currency: 'EUR',
        seller: { name: expect.any(String), vat_id: expect.stringMatching(/^DE/) },
        totals: { payable: expect.any(String) },
      },
    });
    expect(created.body.content.lines.length).toBeGreaterThan(0);
    expect(created.body.content.payment_means[0].iban).toMatch(/^DE\d{20}$/);
    expect(await service.deps.objects.exists('cmp_a/inbound/1/original.xml')).toBe(true);

    // another company starts at 1 too and never sees cmp_a's document
    expect((await receive('cmp_b', CII, 'text/xml')).doc).toMatchObject({ id: 1, format: 'cii-en16931', valid: true });
    expect((await send('cmp_b', 'GET', '/inbound/1')).body.format).toBe('cii-en16931');
    expect((await send('cmp_b', 'GET', '/inbound/2')).status).toBe(404);

    const second = await receive('cmp_a', PEPPOL_CN, 'application/xml');
    expect(second.doc).toMatchObject({ id: 2, format: 'peppol-ubl', document_type: 'CREDIT_NOTE' });

    const list = await send('cmp_a', 'GET', '/inbound/?limit=1');
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total-count')).toBe('2');
    expect(list.body).toEqual([expect.objectContaining({ id: 2, format: 'peppol-ubl', error_count: expect.any(Number) })]);
    expect(list.body[0].content).toBeUndefined();
    // one shape: the list entry is the detail without its findings and reading
    const detail = (await send('cmp_a', 'GET', '/inbound/2')).body;
    const { findings: _f, content: _c, ...withoutReading } = detail;
    expect(list.body[0]).toEqual(withoutReading);
    expect(detail).toMatchObject({ number: expect.any(String), currency: expect.any(String), error_count: expect.any(Number) });
    const vat = created.body.content.seller.vat_id as string;
    expect(
      (await send('cmp_a', 'GET', `/inbound/?seller_vat_id=${encodeURIComponent(vat)}`)).body.map((d: { id: number }) => d.id),
    ).toEqual([1]);
    expect((await send('cmp_a', 'GET', '/inbound/?valid=true')).body.map((d: { id: number }) => d.id)).toContain(1);
    expect((await send('cmp_a', 'GET', '/inbound/?valid=maybe')).status).toBe(400);

    expect((await send('cmp_a', 'DELETE', '/inbound/1')).status).toBe(200);
    expect((await send('cmp_a', 'GET', '/inbound/1')).status).toBe(404);
    expect((await send('cmp_a', 'GET', '/inbound/1/job')).status).toBe(404);
    expect(await service.deps.objects.exists('cmp_a/inbound/1/original.xml')).toBe(false);
    expect((await send('cmp_a', 'DELETE', '/inbound/1')).status).toBe(404);
    const deleted = await waitFor(() => events.find((e) => e.type === 'inbound.deleted.v1' && e.companyId === 'cmp_a'));
    expect(deleted.data).toEqual({ inboundId: 1 });
  });

  it('announces a received document once (inbound.received.v1 with the amounts and the original), even when its command comes again', async () => {
    const { id, doc } = await receive('cmp_ev', XR_UBL, 'application/xml');
    const received = await waitFor(() => events.find((e) => e.type === 'inbound.received.v1' && e.companyId === 'cmp_ev'));
    expect(received.data).toMatchObject({
      inboundId: id,
      format: 'xrechnung-ubl',
      valid: true,
      number: '123456XX',
      issueDate: doc.content.issue_date,
      typeCode: '380',
      currency: 'EUR',
      sellerName: doc.content.seller.name,
      sellerVatId: expect.stringMatching(/^DE/),
      totalNet: doc.content.totals.tax_exclusive,
      totalVat: doc.content.totals.tax_total,
      totalGross: doc.content.totals.tax_inclusive,
      vatBreakdown: [expect.objectContaining({ category: 'S', net: expect.any(String), vat: expect.any(String) })],
      original: {
        key: `cmp_ev/inbound/${id}/original.xml`,
        contentType: 'application/xml',
        size: XR_UBL.length,
        filename: expect.any(String),
      },
    });
    // the command redelivered (twice, at once): nothing is read or announced again
    const before = await service.deps.documents.get('cmp_ev' as never, id);
    await peer.sendCommand('inbound.process-document.v1', 'cmp_ev', { inboundId: id });
    await peer.sendCommand('inbound.process-document.v1', 'cmp_ev', { inboundId: id });
    const next = await receive('cmp_ev', CII, 'application/xml'); // commands are handled in order: after this one, the two are done
    await waitFor(() => events.find((e) => e.type === 'inbound.received.v1' && e.data.inboundId === next.id && e.companyId === 'cmp_ev'));
    expect(events.filter((e) => e.type === 'inbound.received.v1' && e.companyId === 'cmp_ev' && e.data.inboundId === id)).toHaveLength(1);
    expect(await service.deps.documents.get('cmp_ev' as never, id)).toEqual(before);

    // a command for a document still PROCESSING arriving twice (a redelivery racing the first): read once, announced once
    const raced = await send('cmp_ev', 'POST', '/inbound/', PEPPOL_CN, 'application/xml');
    await peer.sendCommand('inbound.process-document.v1', 'cmp_ev', { inboundId: raced.body.id });
    await send('cmp_ev', 'GET', `/inbound/${raced.body.id}/job?wait=25`);
    const third = await receive('cmp_ev', CII, 'application/xml');
    await waitFor(() => events.find((e) => e.type === 'inbound.received.v1' && e.data.inboundId === third.id && e.companyId === 'cmp_ev'));
    expect(
      events.filter((e) => e.type === 'inbound.received.v1' && e.companyId === 'cmp_ev' && e.data.inboundId === raced.body.id),
    ).toHaveLength(1);
  });

  it('a document only the full reading finds broken ends as a failed job with the reason; the upload was kept', async () => {
    const broken = XR_UBL.toString('utf8').replace('</cbc:ID>', '</cbc:IDX>');
    const { id, job, doc } = await receive('cmp_fail', broken, 'application/xml');
    expect(job).toMatchObject({ status: 'failed', error_code: 'XML_NOT_WELL_FORMED', error_message: expect.any(String) });
    expect(doc).toMatchObject({ id, status: 'REJECTED', valid: false, error: { code: 'XML_NOT_WELL_FORMED' } });
    expect(doc.content).toBeUndefined();
    expect(await service.deps.objects.exists(`cmp_fail/inbound/${id}/original.xml`)).toBe(true);
    expect((await send('cmp_fail', 'GET', '/inbound/?status=REJECTED')).body.map((d: { id: number }) => d.id)).toEqual([id]);
    expect((await send('cmp_fail', 'GET', `/inbound/${id}/pdf`)).body.code).toBe('DOCUMENT_NOT_READABLE');
    // no announcement for what could not be read
    expect(events.filter((e) => e.companyId === 'cmp_fail')).toEqual([]);
  });

  it('GET /inbound/{id}/pdf: a ZUGFeRD PDF as sent; an XML rendered by document-service once per language', async () => {
    const pdf = await facturX(CII);
    const zugferd = await receive('cmp_view', pdf, 'application/pdf');
    const link = await send('cmp_view', 'GET', `/inbound/${zugferd.id}/pdf`);
    expect(link.body).toMatchObject({
      url: expect.stringContaining(`cmp_view/inbound/${zugferd.id}/original.pdf`),
      expires_in: expect.any(Number),
    });
    expect(Buffer.from(await (await undiciFetch(link.body.url)).arrayBuffer()).equals(pdf)).toBe(true);
    expect(renders).toHaveLength(0);

    const xml = await receive('cmp_view', XR_UBL, 'application/xml');
    const de = await send('cmp_view', 'GET', `/inbound/${xml.id}/pdf`);
    expect(de.body).toMatchObject({ filename: 'eingangsrechnung-123456XX.pdf', url: expect.stringContaining(`view-de.pdf`) });
    expect(await (await undiciFetch(de.body.url)).text()).toBe('%PDF-1.7 view of 123456XX in de');
    expect(renders).toEqual([
      {
        companyId: 'cmp_view',
        data: expect.objectContaining({
          key: `cmp_view/inbound/${xml.id}/view-de.pdf`,
          language: 'de',
          inboundId: xml.id,
          content: xml.doc.content,
        }),
      },
    ]);
    await send('cmp_view', 'GET', `/inbound/${xml.id}/pdf?language=German`); // cached (German is de)
    const en = await send('cmp_view', 'GET', `/inbound/${xml.id}/pdf?language=en`);
    expect(en.body.filename).toBe('received-invoice-123456XX.pdf');
    expect(renders.map((r) => r.data.language)).toEqual(['de', 'en']);
    expect((await send('cmp_view', 'GET', `/inbound/${xml.id}/pdf?language=fr`)).status).toBe(400);
    expect((await send('cmp_view', 'DELETE', `/inbound/${xml.id}`)).status).toBe(200);
    expect(await service.deps.objects.exists(`cmp_view/inbound/${xml.id}/view-en.pdf`)).toBe(false);
  });

  /** XR_UBL with files embedded as cac:AdditionalDocumentReference (base64 EmbeddedDocumentBinaryObject). */
  const withAttachments = (files: { name: string; mime: string; bytes: Buffer }[]) =>
    Buffer.from(
      XR_UBL.toString('utf8').replace(
        '<cac:AccountingSupplierParty>',
        files
          .map(
            (f, i) =>
              `<cac:AdditionalDocumentReference><cbc:ID>A-${i + 1}</cbc:ID><cbc:DocumentDescription>file ${i + 1}</cbc:DocumentDescription>` +
              `<cac:Attachment><cbc:EmbeddedDocumentBinaryObject mimeCode="${f.mime}" filename="${f.name}">${f.bytes.toString('base64')}` +
              '</cbc:EmbeddedDocumentBinaryObject></cac:Attachment></cac:AdditionalDocumentReference>',
          )
          .join('') + '<cac:AccountingSupplierParty>',
      ),
    );

  it('GET /inbound/{id}/original and /attachments/{n}: presigned downloads of the original and the decoded embedded files, per company', async () => {
    const timesheet = Buffer.concat([Buffer.from('%PDF-1.4\n% timesheet\n'), Buffer.from(Array.from({ length: 3000 }, (_, i) => i % 256))]);
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    const xml = withAttachments([
      { name: 'Stundenzettel.pdf', mime: 'application/pdf', bytes: timesheet },
      { name: '../evil.html', mime: 'text/html', bytes: html },
    ]);
    const { id, doc } = await receive('cmp_att', xml, 'application/xml');
    expect(doc.status).toBe('RECEIVED');
    expect(doc.content.attachments).toEqual([
      expect.objectContaining({
        id: 'A-1',
        filename: 'Stundenzettel.pdf',
        mime_code: 'application/pdf',
        download: `/api/v1/inbound/${id}/attachments/1`,
        size: timesheet.length,
        sha256: createHash('sha256').update(timesheet).digest('hex'),
      }),
      expect.objectContaining({ id: 'A-2', download: `/api/v1/inbound/${id}/attachments/2`, size: html.length }),
    ]);

    const original = await send('cmp_att', 'GET', `/inbound/${id}/original`);
    expect(original.body).toEqual({
      url: expect.stringContaining(`cmp_att/inbound/${id}/original.xml`),
      filename: `inbound-${id}.xml`,
      content_type: 'application/xml',
      expires_in: expect.any(Number),
    });
    const originalRes = await undiciFetch(original.body.url);
    expect(originalRes.headers.get('content-disposition')).toMatch(/^attachment; filename="inbound-\d+\.xml"/);
    expect(Buffer.from(await originalRes.arrayBuffer()).equals(xml)).toBe(true);

    const first = await send('cmp_att', 'GET', `/inbound/${id}/attachments/1`);
    expect(first.body).toEqual({
      url: expect.stringContaining(`cmp_att/inbound/${id}/attachments/1-Stundenzettel.pdf`),
      filename: 'Stundenzettel.pdf',
      content_type: 'application/pdf',
      expires_in: expect.any(Number),
    });
    const firstRes = await undiciFetch(first.body.url);
    expect(firstRes.headers.get('content-disposition')).toBe('attachment; filename="Stundenzettel.pdf"');
    expect(Buffer.from(await firstRes.arrayBuffer()).equals(timesheet)).toBe(true);

    // HTML a supplier embeds is never served as HTML, and always as a download; no path in its name
    const second = await send('cmp_att', 'GET', `/inbound/${id}/attachments/2`);
    expect(second.body).toMatchObject({ filename: 'evil.html', content_type: 'application/octet-stream' });
    const secondRes = await undiciFetch(second.body.url);
    expect(secondRes.headers.get('content-type')).toBe('application/octet-stream');
    expect(secondRes.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(Buffer.from(await secondRes.arrayBuffer()).equals(html)).toBe(true);

    expect((await send('cmp_att', 'GET', `/inbound/${id}/attachments/3`)).body).toMatchObject({
      status: 404,
      code: 'ATTACHMENT_NOT_FOUND',
    });
    expect((await send('cmp_att', 'GET', `/inbound/${id}/attachments/x`)).status).toBe(400);
    // another company's id: 404, nothing signed
    expect((await send('cmp_att_other', 'GET', `/inbound/${id}/original`)).status).toBe(404);
    expect((await send('cmp_att_other', 'GET', `/inbound/${id}/attachments/1`)).status).toBe(404);

    expect((await send('cmp_att', 'DELETE', `/inbound/${id}`)).status).toBe(200);
    expect(await service.deps.objects.exists(`cmp_att/inbound/${id}/attachments/1-Stundenzettel.pdf`)).toBe(false);
    expect(await service.deps.objects.exists(`cmp_att/inbound/${id}/attachments/2-evil.html`)).toBe(false);
    expect((await send('cmp_att', 'GET', `/inbound/${id}/original`)).status).toBe(404);
  });

  it('reads a CII AttachmentBinaryObject as an attachment', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
    const cii = Buffer.from(
      CII.toString('utf8').replace(
        '</ram:ApplicableHeaderTradeAgreement>',
        '<ram:AdditionalReferencedDocument><ram:IssuerAssignedID>TS-1</ram:IssuerAssignedID><ram:TypeCode>916</ram:TypeCode>' +
          `<ram:Name>Timesheet</ram:Name><ram:AttachmentBinaryObject mimeCode="image/png" filename="ts.png">${png.toString('base64')}` +
          '</ram:AttachmentBinaryObject></ram:AdditionalReferencedDocument></ram:ApplicableHeaderTradeAgreement>',
      ),
    );
    const { id, doc } = await receive('cmp_att_cii', cii, 'application/xml');
    expect(doc.content.attachments).toEqual([
      expect.objectContaining({ id: 'TS-1', filename: 'ts.png', download: `/api/v1/inbound/${id}/attachments/1`, size: png.length }),
    ]);
    const link = await send('cmp_att_cii', 'GET', `/inbound/${id}/attachments/1`);
    expect(link.body).toMatchObject({ filename: 'ts.png', content_type: 'image/png' });
    expect(Buffer.from(await (await undiciFetch(link.body.url)).arrayBuffer()).equals(png)).toBe(true);
  });

  it("a ZUGFeRD/Factur-X PDF's other embedded files are attachments too, after those of its XML", async () => {
    const note = Buffer.from('%PDF-1.4 Lieferschein 4711');
    const pdf = await PDFDocument.create();
    pdf.addPage();
    await pdf.attach(CII, 'factur-x.xml', { mimeType: 'text/xml', description: 'Factur-X invoice' });
    await pdf.attach(note, 'Lieferschein.pdf', { mimeType: 'application/pdf', description: 'Lieferschein' });
    const bytes = Buffer.from(await pdf.save());
    const { id, doc } = await receive('cmp_att_pdf', bytes, 'application/pdf');
    expect(doc).toMatchObject({ status: 'RECEIVED', format: 'factur-x' });
    expect(doc.content.attachments).toEqual([
      expect.objectContaining({
        filename: 'Lieferschein.pdf',
        mime_code: 'application/pdf',
        description: 'Lieferschein',
        download: `/api/v1/inbound/${id}/attachments/1`,
        size: note.length,
      }),
    ]);
    const link = await send('cmp_att_pdf', 'GET', `/inbound/${id}/attachments/1`);
    expect(link.body).toMatchObject({ filename: 'Lieferschein.pdf', content_type: 'application/pdf' });
    expect(Buffer.from(await (await undiciFetch(link.body.url)).arrayBuffer()).equals(note)).toBe(true);
    const original = await send('cmp_att_pdf', 'GET', `/inbound/${id}/original`);
    expect(original.body).toMatchObject({ filename: `inbound-${id}.pdf`, content_type: 'application/pdf' });
    expect(Buffer.from(await (await undiciFetch(original.body.url)).arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('too many or too large embedded attachments: a warning each, nothing stored for them', async () => {
    const limits = service.deps.attachmentLimits;
    service.deps.attachmentLimits = { count: 2, bytes: 1000, totalBytes: 1500 };
    try {
      const file = (name: string, size: number) => ({ name, mime: 'application/pdf', bytes: Buffer.alloc(size, name.charCodeAt(0)) });
      const { id, doc } = await receive(
        'cmp_att_lim',
        withAttachments([file('a.pdf', 600), file('b.pdf', 1001), file('c.pdf', 1000), file('d.pdf', 100), file('e.pdf', 100)]),
        'application/xml',
      );
      expect(doc.status).toBe('RECEIVED');
      expect(doc.content.attachments.map((a: { download?: string }) => a.download)).toEqual([
        `/api/v1/inbound/${id}/attachments/1`,
        undefined,
        undefined,
        `/api/v1/inbound/${id}/attachments/4`,
        undefined,
      ]);
      const warnings = doc.findings.filter((f: { rule: string }) => f.rule === 'INB-ATTACHMENT');
      expect(warnings).toEqual([
        expect.objectContaining({ severity: 'warning', source: 'attachments', location: '/Invoice[1]/AdditionalDocumentReference[2]' }),
        expect.objectContaining({ severity: 'warning', message: expect.stringContaining('in all') }),
        expect.objectContaining({ severity: 'warning', message: expect.stringContaining('more than 2') }),
      ]);
      for (const [n, name] of [
        [2, 'b.pdf'],
        [3, 'c.pdf'],
        [5, 'e.pdf'],
      ] as const) {
        expect((await send('cmp_att_lim', 'GET', `/inbound/${id}/attachments/${n}`)).status).toBe(404);
        expect(await service.deps.objects.exists(`cmp_att_lim/inbound/${id}/attachments/${n}-${name}`)).toBe(false);
      }
      expect((await send('cmp_att_lim', 'GET', `/inbound/${id}/attachments/4`)).body.filename).toBe('d.pdf');
    } finally {
      service.deps.attachmentLimits = limits;
    }
  });

  it('reads a ZUGFeRD/Factur-X PDF through its embedded XML, raw and as a multipart file', async () => {
    const pdf = await facturX(CII);
    const raw = await receive('cmp_pdf', pdf, 'application/pdf');
    expect(raw.doc).toMatchObject({ format: 'factur-x', media_type: 'application/pdf', valid: true });
    expect(await service.deps.objects.exists(`cmp_pdf/inbound/${raw.id}/original.pdf`)).toBe(true);

    const form = new UndiciFormData();
    form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'rechnung.pdf');
    const multi = await receive('cmp_pdf', form);
    expect(multi.doc).toMatchObject({ format: 'factur-x', filename: 'rechnung.pdf' });
  });

  it('validates synchronously without storing anything, naming the broken rules', async () => {
    const broken = XR_UBL.toString('utf8').replace(
      /<cbc:PayableAmount currencyID="EUR">([\d.]+)</,
      (_m, v: string) => `<cbc:PayableAmount currencyID="EUR">${(Number(v) + 5).toFixed(2)}<`,
    );
    const res = await send('cmp_v', 'POST', '/inbound/validate', broken, 'application/xml');
    expect(res.status).toBe(200);
    expect(res.body.valid).toBe(false);
    expect(res.body.findings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ rule: 'BR-CO-16', severity: 'fatal', source: 'en16931' }),
        expect.objectContaining({ rule: 'INB-ARITH-PAYABLE', severity: 'error', source: 'arithmetic' }),
      ]),
    );
    expect((await send('cmp_v', 'GET', '/inbound/')).body).toEqual([]);
    const big = Buffer.alloc(1024 * 1024 + 10, 0x20);
    expect((await send('cmp_v', 'POST', '/inbound/validate', big, 'application/xml')).body.code).toBe('DOCUMENT_TOO_LARGE');
  });

  describe('hostile input: a 4xx problem naming the reason at once when cheap to see, else a failed job naming it; nothing fetched', () => {
    const cases: [string, () => Promise<Buffer | string>, string, number, string][] = [
      [
        'XXE (external entity)',
        async () => '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><Invoice>&e;</Invoice>',
        'application/xml',
        400,
        'XML_DTD_FORBIDDEN',
      ],
      [
        'entity expansion (billion laughs)',
        async () =>
          `<!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><l>&c;</l>`,
        'application/xml',
        400,
        'XML_DTD_FORBIDDEN',
      ],
      [
        'external DTD',
        async () => '<!DOCTYPE Invoice SYSTEM "http://127.0.0.1:1/evil.dtd"><Invoice/>',
        'application/xml',
        400,
        'XML_DTD_FORBIDDEN',
      ],
      ['no root element', async () => '<?xml version="1.0"?><!-- nothing -->', 'application/xml', 400, 'XML_NOT_WELL_FORMED'],
      // 202: accepted, the job fails with the code
      [
        'not well-formed',
        async () => '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><cbc:ID>1</Invoice>',
        'application/xml',
        202,
        'XML_NOT_WELL_FORMED',
      ],
      ['a root element without the namespace', async () => '<Invoice><ID>1</ID></Invoice>', 'application/xml', 415, 'UNSUPPORTED_FORMAT'],
      ['deep nesting', async () => `${'<a>'.repeat(10_000)}${'</a>'.repeat(10_000)}`, 'application/xml', 400, 'XML_TOO_DEEP'],
      ['another XML vocabulary', async () => '<html xmlns="http://www.w3.org/1999/xhtml"/>', 'application/xml', 415, 'UNSUPPORTED_FORMAT'],
      [
        'an external schema reference is not followed',
        async () =>
          XR_UBL.toString('utf8').replace(
            '<ubl:Invoice ',
            '<ubl:Invoice xsi:schemaLocation="urn:x http://127.0.0.1:1/x.xsd" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ',
          ),
        'application/xml',
        202,
        '',
      ],
      [
        'ISO-8859-1',
        async () => '<?xml version="1.0" encoding="ISO-8859-1"?><Invoice/>',
        'application/xml',
        400,
        'XML_ENCODING_UNSUPPORTED',
      ],
      ['JSON', async () => '{"invoice":1}', 'application/json', 415, 'UNSUPPORTED_FORMAT'],
      ['a plain PDF', async () => Buffer.from(await (await PDFDocument.create()).save()), 'application/pdf', 202, 'PDF_WITHOUT_EINVOICE'],
      [
        'a PDF with a broken xref',
        async () =>
          Buffer.from(
            '%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\nxref\n0 99\nbroken\ntrailer << /Root 1 0 R /Size 99 >>\nstartxref\n9\n%%EOF',
          ),
        'application/pdf',
        202,
        'PDF_WITHOUT_EINVOICE',
      ],
      ['an oversized XML', async () => Buffer.alloc(5 * 1024 * 1024 + 1, 0x20), 'application/xml', 413, 'DOCUMENT_TOO_LARGE'],
      [
        'a zip bomb inside a PDF',
        async () => {
          const pdf = await PDFDocument.create();
          pdf.addPage();
          const bomb = pdf.context.flateStream(Buffer.alloc(64 * 1024 * 1024, 0x20));
          const ref = pdf.context.register(bomb);
          const spec = pdf.context.obj({ Type: 'Filespec', F: PDFString.of('factur-x.xml'), EF: { F: ref } });
          const tree = pdf.context.obj({ Names: [PDFString.of('factur-x.xml'), spec] });
          pdf.catalog.set(PDFName.of('Names'), pdf.context.obj({ EmbeddedFiles: tree }));
          return Buffer.from(await pdf.save());
        },
        'application/pdf',
        202,
        'DOCUMENT_TOO_LARGE',
      ],
    ];
    it.each(cases)('%s', async (_name, body, type, status, code) => {
      const bytes = await body();
      if (status === 202) {
        const { job } = await receive('cmp_hostile', bytes, type);
        expect({ status: job.status, code: job.error_code }).toEqual(
          code ? { status: 'failed', code } : { status: 'finished', code: undefined },
        );
        return;
      }
      const res = await send('cmp_hostile', 'POST', '/inbound/', bytes, type);
      expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
      expect(res.type).toContain('application/problem+json');
    });
    it('a deflate bomb is cut by zlib, not inflated whole', () => {
      // guard for the case above: 64 MiB of blanks compress to ~64 KiB
      expect(deflateSync(Buffer.alloc(64 * 1024 * 1024, 0x20)).length).toBeLessThan(200 * 1024);
    });
  });

  it('mutated XML never gives a 5xx (fuzz)', async () => {
    const text = CII.toString('utf8');
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: text.length - 1 }),
        fc.integer({ min: 0, max: 40 }),
        fc.string({
          maxLength: 12,
          unit: fc.constantFrom('<', '>', '/', '&', ';', '"', '=', ' ', 'a', 'ram:', '!', '?', '\u0000', 'é', ']]>'),
        }),
        async (at, drop, insert) => {
          const mutated = text.slice(0, at) + insert + text.slice(at + drop);
          const res = await send('cmp_fuzz', 'POST', '/inbound/validate', mutated, 'application/xml');
          expect(res.status).toBeLessThan(500);
        },
      ),
      { numRuns: Number(process.env.FC_RUNS ?? 25), seed: 20261127 },
    );
  });

  it('matches the sender against the supplier register, flags a payment to an unknown IBAN and a repeated number', async () => {
    const json = (body: unknown) => JSON.stringify(body);
    const probe = await send('cmp_sup', 'POST', '/inbound/validate', XR_UBL, 'application/xml');
    const vat = (probe.body.content.seller.vat_id as string).replace(/\s+/g, '');
    const docIban = probe.body.content.payment_means[0].iban as string;

    expect(
      (await send('cmp_sup', 'POST', '/suppliers/', json({ name: 'X', ibans: ['DE00 1234'] }), 'application/json')).body,
    ).toMatchObject({
      code: 'VALIDATION_ERROR',
      errors: [{ path: 'ibans.0' }],
    });
    expect((await send('cmp_sup', 'POST', '/suppliers/', json({ name: 'X', nmae: 'typo' }), 'application/json')).body.code).toBe(
      'UNKNOWN_FIELD',
    );
    // a supplier name refuses control characters and bidirectional overrides, as every other name does
    for (const name of ['Evil\u202Egpj.exe GmbH', 'Line\nbreak GmbH', 'Nul\u0000 GmbH'])
      expect((await send('cmp_sup', 'POST', '/suppliers/', json({ name }), 'application/json')).body).toMatchObject({
        code: 'VALIDATION_ERROR',
        errors: [{ path: 'name', message: expect.stringMatching(/control characters or bidirectional overrides/) }],
      });
    expect((await send('cmp_sup', 'GET', '/suppliers/')).body).toEqual([]);
    const created = await send(
      'cmp_sup',
      'POST',
      '/suppliers/',
      json({ name: 'Seller GmbH', vat_id: vat, ibans: ['DE02 1203 0000 0000 2020 51'] }),
      'application/json',
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: 1, name: 'Seller GmbH', vat_id: vat, ibans: ['DE02120300000000202051'] });

    const first = await receive('cmp_sup', XR_UBL, 'application/xml');
    expect(first.doc).toMatchObject({ supplier_id: 1, iban_differs: true });
    expect(first.doc.duplicate_of).toBeUndefined();
    const again = await receive('cmp_sup', XR_UBL, 'application/xml');
    expect(again.doc).toMatchObject({ supplier_id: 1, duplicate_of: first.id });

    const updated = await send(
      'cmp_sup',
      'PUT',
      '/suppliers/1',
      json({ name: 'Seller GmbH', vat_id: vat, ibans: [docIban] }),
      'application/json',
    );
    expect(updated.body).toMatchObject({ id: 1, ibans: [docIban] });
    expect((await receive('cmp_sup', XR_UBL, 'application/xml')).doc).toMatchObject({
      supplier_id: 1,
      iban_differs: false,
    });

    expect((await send('cmp_sup', 'GET', '/suppliers/')).body).toEqual([expect.objectContaining({ id: 1 })]);
    expect((await send('cmp_other', 'GET', '/suppliers/1')).status).toBe(404);
    expect((await send('cmp_sup', 'POST', '/suppliers/', json({ name: 'Y' }), 'application/json', 'viewer')).status).toBe(403);
    expect((await send('cmp_sup', 'DELETE', '/suppliers/1')).status).toBe(200);
    expect((await send('cmp_sup', 'GET', '/suppliers/1')).status).toBe(404);
  });

  it('announces each change of the supplier register for the audit log (supplier.changed.v1: field names only)', async () => {
    const json = (body: unknown) => JSON.stringify(body);
    const created = await send('cmp_sup_log', 'POST', '/suppliers/', json({ name: 'Seller GmbH', ibans: [] }), 'application/json');
    expect(created.status).toBe(201);
    const path = `/suppliers/${created.body.id}`;
    const put = (p: string) =>
      send('cmp_sup_log', 'PUT', p, json({ name: 'Seller AG', vat_id: 'DE123456789', ibans: [] }), 'application/json');
    expect((await put(path)).status).toBe(200);
    expect((await put('/suppliers/99')).status).toBe(404); // nothing changed, nothing announced
    expect((await send('cmp_sup_log', 'DELETE', path)).status).toBe(200);
    expect((await send('cmp_sup_log', 'DELETE', path)).status).toBe(404);
    const mine = () => supplierChanges.filter((c) => c.companyId === 'cmp_sup_log').map((c) => c.data);
    await waitFor(async () => mine().length >= 3, { what: 'three supplier announcements' });
    await new Promise((r) => setTimeout(r, 300)); // a fourth would have arrived by now
    expect(mine()).toEqual([
      { supplierId: created.body.id, action: 'created', fields: ['name', 'ibans'] },
      { supplierId: created.body.id, action: 'updated', fields: ['name', 'vat_id', 'ibans'] },
      { supplierId: created.body.id, action: 'deleted', fields: [] },
    ]);
  });

  it('writing needs member or above; reading is open to viewers', async () => {
    expect((await send('cmp_roles', 'POST', '/inbound/', CII, 'application/xml', 'viewer')).status).toBe(403);
    expect((await send('cmp_roles', 'GET', '/inbound/', undefined, undefined, 'viewer')).status).toBe(200);
  });
});
