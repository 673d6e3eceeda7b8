import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Bus } from '@inv/bus';
import type { InvoiceSnapshot, Messages } from '@inv/contracts';
import { domesticMixedRates, publicSectorBuyer, sellerParty } from '@inv/einvoice';
import { deleteBrokerObjects, peerBus, testEnv, testMongo, uniquePrefix, waitFor } from '@inv/testing';
import { documentConfig } from './config';
import { createDocumentService } from './document-service';

jest.setTimeout(90_000);

// `pdfdetach -v` exits 99 by design, so presence is judged by whether it could be spawned at all.
const hasPoppler = !spawnSync('pdfdetach', ['-v'], { stdio: 'ignore' }).error;

/** document-service on the bus: render command -> stored PDF/A-3 + XML -> events; the RPCs it serves. */
describe('document-service', () => {
  const prefix = uniquePrefix();
  const company = 'cmp_docs';
  let mongo: Awaited<ReturnType<typeof testMongo>>;
  let service: Awaited<ReturnType<typeof createDocumentService>>;
  let peer: Bus<Messages>;
  const events: { type: string; id: string; data: Record<string, unknown> }[] = [];

  beforeAll(async () => {
    mongo = await testMongo();
    service = await createDocumentService(documentConfig.parse(testEnv(prefix, mongo.uri, { PRESIGNED_URL_TTL_SECONDS: '60' })));
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
    await mongo?.stop();
  });

  const render = async (jobId: string, snapshot: InvoiceSnapshot, format: 'ZUGFERD' | 'XRECHNUNG' | 'PDF') => {
    await peer.sendCommand('document.render-invoice.v1', company, { jobId, invoiceId: 1, format, templateId: 1, snapshot });
    return waitFor(() => events.find((e) => e.data.jobId === jobId && e.type !== 'document.render-started.v1'), { timeoutMs: 30_000, what: `render ${jobId}` });
  };

  it('renders a ZUGFeRD invoice: PDF/A-3 with factur-x.xml embedded, stored, and announced', async () => {
    const done = await render('job-zugferd', domesticMixedRates() as InvoiceSnapshot, 'ZUGFERD');
    expect(done.type).toBe('document.rendered.v1');
    expect(done.id).toBe('rendered-job-zugferd');
    expect(events.some((e) => e.type === 'document.render-started.v1' && e.data.jobId === 'job-zugferd')).toBe(true);
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

  it('reports render-failed (not a hang) for data the writers refuse', async () => {
    const broken = { ...domesticMixedRates(), lines: [{ ...domesticMixedRates().lines[0], quantity: '1', unitPrice: '10', discount: { type: 'FIXED_AMOUNT' as const, value: '99' } }] };
    const failed = await render('job-broken', broken as InvoiceSnapshot, 'ZUGFERD');
    expect(failed.type).toBe('document.render-failed.v1');
    expect(String(failed.data.reason)).toMatch(/exceeds/);
  });

  it('serves preview, requirements, presigned links and templates over RPC', async () => {
    const preview = await peer.callRpc('document.render-preview.v1', company, { format: 'ZUGFERD', templateId: 2, snapshot: domesticMixedRates() as InvoiceSnapshot }, { timeoutMs: 20_000 });
    expect(Buffer.from(preview.pdfBase64, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    const missingLeitweg = { ...publicSectorBuyer(), buyerReference: undefined };
    const req = await peer.callRpc('document.check-requirements.v1', company, { format: 'XRECHNUNG', snapshot: missingLeitweg as unknown as Record<string, unknown> });
    expect(req.errors.map((e) => e.field)).toContain('buyerReference');
    expect((await peer.callRpc('document.check-requirements.v1', company, { format: 'PDF', snapshot: {} })).errors).toEqual([]);
    expect(await peer.callRpc('document.template-exists.v1', company, { templateId: 2 })).toEqual({ exists: true });
    expect(await peer.callRpc('document.template-exists.v1', company, { templateId: 99 })).toEqual({ exists: false });
    await expect(peer.callRpc('document.presign.v1', company, { key: 'cmp_other/invoices/1/x.pdf', filename: 'x.pdf' })).rejects.toThrow();
  });

  it('renders a statement PDF and returns a presigned link', async () => {
    const seller = sellerParty();
    const answer = await peer.callRpc('document.render-statement.v1', company, {
      language: 'en',
      company: seller,
      customer: { ...domesticMixedRates().buyer, customerNumber: '10001' },
      from: '2026-01-01',
      to: '2026-11-30',
      openingBalance: '0.00',
      entries: [{ date: '2026-11-02', documentNumber: 'RE-2026-00001', type: 'invoice', debit: '119.00', balance: '119.00' }],
      closingBalance: '119.00',
    }, { timeoutMs: 20_000 });
    const res = await fetch(answer.url);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
  });
});
