import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Bus } from '@inv/bus';
import type { InvoiceSnapshot, Messages } from '@inv/contracts';
import { domesticMixedRates, publicSectorBuyer, sellerParty } from '@inv/einvoice';
import { deleteBrokerObjects, peerBus, testEnv, testS3, uniquePrefix, waitFor } from '@inv/testing';
import { documentConfig } from './config';
import { createDocumentService } from './document-service';

jest.setTimeout(90_000);

const VALIDATE = join(__dirname, '../../../../shared/conformance/validate');
// `pdfdetach -v` exits 99 by design, so presence is judged by whether it could be spawned at all.
const hasPoppler = !spawnSync('pdfdetach', ['-v'], { stdio: 'ignore' }).error;

/** document-service on the bus: render command -> stored PDF/A-3 + XML -> events; the RPCs it serves. */
describe('document-service', () => {
  const prefix = uniquePrefix();
  const company = 'cmp_docs';
  let s3: Awaited<ReturnType<typeof testS3>>;
  let service: Awaited<ReturnType<typeof createDocumentService>>;
  let peer: Bus<Messages>;
  const events: { type: string; id: string; data: Record<string, unknown> }[] = [];

  beforeAll(async () => {
    s3 = await testS3();
    // no MongoDB: document-service keeps no data
    service = await createDocumentService(
      documentConfig.parse(testEnv(prefix, undefined, { ...s3.env, PRESIGNED_URL_TTL_SECONDS: '60', RENDER_STARTED_AFTER_MS: '0' })),
    );
    await service.start();
    peer = peerBus(prefix);
    peer.onEvent('doc-events', ['document.render-started.v1', 'document.rendered.v1', 'document.render-failed.v1'], async (msg) => {
      events.push({ type: msg.type, id: msg.id, data: msg.data as Record<string, unknown> });
    });
    await peer.start();
  });
  afterAll(async () => {
    await service?.stop();
    await peer?.stop();
    await deleteBrokerObjects(prefix);
    await s3?.stop();
  });

  type Att = { id: number; key: string; filename: string; contentType: string; size: number; description?: string };
  type Logo = { key: string; contentType: 'image/png' | 'image/jpeg' };
  const render = async (
    jobId: string,
    snapshot: InvoiceSnapshot,
    format: 'ZUGFERD' | 'XRECHNUNG' | 'PEPPOL' | 'PDF',
    attachments?: Att[],
    logo?: Logo,
  ) => {
    await peer.sendCommand('document.render-invoice.v1', company, {
      jobId,
      invoiceId: 1,
      format,
      templateId: 1,
      snapshot,
      attachments,
      logo,
    });
    return waitFor(() => events.find((e) => e.data.jobId === jobId && e.type !== 'document.render-started.v1'), {
      timeoutMs: 30_000,
      what: `render ${jobId}`,
    });
  };

  it('renders a ZUGFeRD invoice: PDF/A-3 with factur-x.xml embedded, stored, and announced', async () => {
    const done = await render('job-zugferd', domesticMixedRates() as InvoiceSnapshot, 'ZUGFERD');
    expect(done.type).toBe('document.rendered.v1');
    expect(done.id).toBe('rendered-job-zugferd');
    expect(events.some((e) => e.type === 'document.render-started.v1' && e.data.jobId === 'job-zugferd')).toBe(true);
    expect(Number.isNaN(Date.parse(done.data.startedAt as string))).toBe(false);
    const pdf = done.data.pdf as { key: string; filename: string };
    const xml = done.data.xml as { key: string; filename: string };
    expect(pdf.key.startsWith(`${company}/invoices/1/`)).toBe(true);
    const bytes = await service.objects.get(pdf.key);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const storedXml = (await service.objects.get(xml.key)).toString('utf8');
    expect(storedXml).toContain('urn:cen.eu:en16931:2017');
    if (!hasPoppler) return console.warn('poppler-utils missing: embedded-file check skipped');
    const dir = mkdtempSync(join(tmpdir(), 'doc-'));
    writeFileSync(join(dir, 'i.pdf'), bytes);
    expect(execFileSync('pdfdetach', ['-list', join(dir, 'i.pdf')]).toString()).toContain('factur-x.xml');
    execFileSync('pdfdetach', ['-savefile', 'factur-x.xml', '-o', join(dir, 'x.xml'), join(dir, 'i.pdf')]);
    expect(readFileSync(join(dir, 'x.xml'), 'utf8')).toBe(storedXml);
  });

  it('renders XRechnung with the UBL XML embedded as xrechnung.xml, and PDF without XML', async () => {
    const x = await render('job-xr', publicSectorBuyer() as InvoiceSnapshot, 'XRECHNUNG');
    expect((x.data.xml as { filename: string }).filename).toMatch(/xrechnung\.xml$/);
    const p = await render('job-pdf', domesticMixedRates() as InvoiceSnapshot, 'PDF');
    expect(p.type).toBe('document.rendered.v1');
    expect(p.data.xml).toBeUndefined();
  });

  it('embeds attachments: PDF/A-3 Supplement beside the Alternative XML, BG-24 in PEPPOL UBL; both pass the checks', async () => {
    const terms = Buffer.from('%PDF-1.7\n1 0 obj<</Type/Catalog>>endobj\n%%EOF\n');
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00');
    await service.objects.put(`${company}/invoices/1/attachments/1-terms.pdf`, terms, 'application/pdf');
    await service.objects.put(`${company}/invoices/1/attachments/2-anim.gif`, gif, 'image/gif');
    const atts: Att[] = [
      {
        id: 1,
        key: `${company}/invoices/1/attachments/1-terms.pdf`,
        filename: 'terms.pdf',
        contentType: 'application/pdf',
        size: terms.length,
        description: 'Terms',
      },
      { id: 2, key: `${company}/invoices/1/attachments/2-anim.gif`, filename: 'anim.gif', contentType: 'image/gif', size: gif.length },
    ];
    const z = await render('job-att-zugferd', domesticMixedRates() as InvoiceSnapshot, 'ZUGFERD', atts);
    expect(z.type).toBe('document.rendered.v1');
    const pdf = await service.objects.get((z.data.pdf as { key: string }).key);
    expect(pdf.toString('latin1')).toMatch(/\/AFRelationship \/Supplement/);
    expect(pdf.toString('latin1')).toMatch(/\/AFRelationship \/Alternative/);
    const p = await render('job-att-peppol', domesticMixedRates() as InvoiceSnapshot, 'PEPPOL', atts);
    const ubl = (await service.objects.get((p.data.xml as { key: string }).key)).toString('utf8');
    expect(ubl).toContain(`filename="terms.pdf">${terms.toString('base64')}<`);
    expect(ubl).not.toContain('anim.gif'); // EN 16931 allows no GIF
    if (!hasPoppler) return console.warn('poppler-utils/qpdf missing: embedded-file checks skipped');
    const dir = mkdtempSync(join(tmpdir(), 'doc-att-'));
    writeFileSync(join(dir, 'i.pdf'), pdf);
    const list = execFileSync('pdfdetach', ['-list', join(dir, 'i.pdf')]).toString();
    expect(list).toMatch(/factur-x\.xml/);
    expect(list).toMatch(/terms\.pdf/);
    expect(list).toMatch(/anim\.gif/);
    execFileSync('pdfdetach', ['-savefile', 'terms.pdf', '-o', join(dir, 't.pdf'), join(dir, 'i.pdf')]);
    expect(readFileSync(join(dir, 't.pdf')).equals(terms)).toBe(true);
    expect(execFileSync('qpdf', ['--check', join(dir, 'i.pdf')]).toString()).toContain('No syntax or stream encoding errors');
    execFileSync('pdfdetach', ['-savefile', 'factur-x.xml', '-o', join(dir, 'x.xml'), join(dir, 'i.pdf')]);
    writeFileSync(join(dir, 'p.xml'), ubl);
    expect(execFileSync(VALIDATE, ['-n', '0', 'cii-en16931', join(dir, 'x.xml')]).toString()).toMatch(/^PASS /m);
    expect(execFileSync(VALIDATE, ['-n', '0', 'peppol-ubl', join(dir, 'p.xml')]).toString()).toMatch(/^PASS /m);
  });

  it('puts the company logo into the letterhead and keeps the PDF/A-3 structure; a logo deleted meanwhile is left out', async () => {
    const png = readFileSync(join(__dirname, '../assets/logo-placeholder.png'));
    const logo: Logo = { key: `${company}/company/logo-0123456789abcdef.png`, contentType: 'image/png' };
    await service.objects.put(logo.key, png, 'image/png');
    const done = await render('job-logo', domesticMixedRates() as InvoiceSnapshot, 'ZUGFERD', undefined, logo);
    expect(done.type).toBe('document.rendered.v1');
    const pdf = await service.objects.get((done.data.pdf as { key: string }).key);
    const latin = pdf.toString('latin1');
    expect(latin).toMatch(/<pdfaid:part>3<\/pdfaid:part>/);
    expect(latin).toMatch(/<pdfaid:conformance>B<\/pdfaid:conformance>/);
    expect(latin).toMatch(/\/OutputIntents/);
    expect(latin).toMatch(/\/AFRelationship \/Alternative/);
    const gone = await render('job-logo-gone', domesticMixedRates() as InvoiceSnapshot, 'PDF', undefined, {
      key: `${company}/company/logo-deleted.png`,
      contentType: 'image/png',
    });
    expect(gone.type).toBe('document.rendered.v1');
    const foreign = await render('job-logo-foreign', domesticMixedRates() as InvoiceSnapshot, 'PDF', undefined, {
      key: `cmp_other/company/logo.png`,
      contentType: 'image/png',
    });
    expect(foreign.type).toBe('document.rendered.v1'); // another company's key is never read
    if (!hasPoppler) return console.warn('poppler-utils/qpdf missing: image checks skipped');
    const dir = mkdtempSync(join(tmpdir(), 'doc-logo-'));
    const file = join(dir, 'i.pdf');
    writeFileSync(file, pdf);
    const images = execFileSync('pdfimages', ['-list', file])
      .toString()
      .split('\n')
      .slice(2)
      .filter((l) => l.trim());
    expect(images).toHaveLength(1);
    expect(images[0]).toMatch(/\bimage\b/);
    expect(execFileSync('qpdf', ['--check', file]).toString()).toContain('No syntax or stream encoding errors');
    expect(execFileSync('pdfdetach', ['-list', file]).toString()).toContain('factur-x.xml');
    for (const job of [gone, foreign]) {
      const other = join(dir, `${job.data.jobId as string}.pdf`);
      writeFileSync(other, await service.objects.get((job.data.pdf as { key: string }).key));
      expect(
        execFileSync('pdfimages', ['-list', other])
          .toString()
          .split('\n')
          .slice(2)
          .filter((l) => l.trim()),
      ).toHaveLength(0);
    }
  });

  it('refuses an attachment key of another company (render-failed)', async () => {
    const failed = await render('job-att-foreign', domesticMixedRates() as InvoiceSnapshot, 'ZUGFERD', [
      { id: 9, key: 'cmp_other/invoices/1/attachments/9-x.pdf', filename: 'x.pdf', contentType: 'application/pdf', size: 1 },
    ]);
    expect(failed.type).toBe('document.render-failed.v1');
    expect(String(failed.data.reason)).toMatch(/not stored under this company/);
  });

  it('reports render-failed (not a hang) for data the writers refuse', async () => {
    const broken = {
      ...domesticMixedRates(),
      lines: [
        { ...domesticMixedRates().lines[0], quantity: '1', unitPrice: '10', discount: { type: 'FIXED_AMOUNT' as const, value: '99' } },
      ],
    };
    const failed = await render('job-broken', broken as InvoiceSnapshot, 'ZUGFERD');
    expect(failed.type).toBe('document.render-failed.v1');
    expect(String(failed.data.reason)).toMatch(/exceeds/);
  });

  it('serves preview, presigned links and templates over RPC', async () => {
    const preview = await peer.callRpc(
      'document.render-preview.v1',
      company,
      { format: 'ZUGFERD', templateId: 2, snapshot: domesticMixedRates() as InvoiceSnapshot },
      { timeoutMs: 20_000 },
    );
    expect(Buffer.from(preview.pdfBase64, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    expect(await peer.callRpc('document.template-exists.v1', company, { templateId: 2 })).toEqual({ exists: true });
    expect(await peer.callRpc('document.template-exists.v1', company, { templateId: 99 })).toEqual({ exists: false });
    await expect(peer.callRpc('document.presign.v1', company, { key: 'cmp_other/invoices/1/x.pdf', filename: 'x.pdf' })).rejects.toThrow();
  });

  it('renders a statement PDF and returns a presigned link', async () => {
    const seller = sellerParty();
    const answer = await peer.callRpc(
      'document.render-statement.v1',
      company,
      {
        language: 'en',
        company: seller,
        customer: { ...domesticMixedRates().buyer, customerNumber: '10001' },
        from: '2026-01-01',
        to: '2026-11-30',
        openingBalance: '0.00',
        entries: [{ date: '2026-11-02', documentNumber: 'RE-2026-00001', type: 'invoice', debit: '119.00', balance: '119.00' }],
        closingBalance: '119.00',
      },
      { timeoutMs: 20_000 },
    );
    const res = await fetch(answer.url);
    expect(res.status).toBe(200);
    expect(
      Buffer.from(await res.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });

  it('renders a reminder PDF over RPC and stores it under the invoice', async () => {
    const answer = await peer.callRpc(
      'document.render-reminder.v1',
      company,
      {
        invoiceId: 42,
        reminderId: 3,
        language: 'de',
        company: sellerParty(),
        customer: { ...domesticMixedRates().buyer, customerNumber: '10001' },
        level: 2,
        title: '1. Mahnung',
        date: '2025-08-14',
        text: 'Sehr geehrte Damen und Herren,\n\nbitte zahlen Sie.',
        invoiceNumber: 'RE-2025-0042',
        invoiceDate: '2025-05-01',
        dueDate: '2025-05-15',
        invoiceTotal: '1000.00',
        openAmount: '1000.00',
        fees: '5.00',
        flatFee: '0.00',
        interest: '26.86',
        interestPeriods: [
          { from: '2025-05-16', to: '2025-06-30', days: 46, ratePercent: '11.27' },
          { from: '2025-07-01', to: '2025-08-14', days: 45, ratePercent: '10.27' },
        ],
        total: '1031.86',
        payBy: '2025-08-21',
      },
      { timeoutMs: 20_000 },
    );
    expect(answer).toMatchObject({ key: `${company}/invoices/42/reminders/3-2.pdf`, filename: 'Mahnung-RE-2025-0042-2.pdf' });
    const pdf = await service.objects.get(answer.key);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.length).toBe(answer.size);
  });
});
