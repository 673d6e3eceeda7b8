import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { apiClient, startSystem, type System } from '../support/system';

jest.setTimeout(300_000);

const KIT = process.env.INBOUND_CONFORMANCE_DIR ?? resolve(__dirname, '../../../shared/conformance');
const XR_UBL = readFileSync(join(KIT, 'xrechnung/examples/01.01a-INVOICE_ubl.xml'));

/**
 * Receiving an e-invoice across the real services: the upload through the gateway answers 202 with a job, the job is
 * long-polled to its end, and the PDF view of the XRechnung is rendered by document-service (pdftotext finds the
 * seller, the number and the amount due in both languages).
 */
describe('e2e: a received XRechnung, its job and its PDF view', () => {
  let system: System;
  let dir: string;
  const api = apiClient(
    () => system.base,
    () => system.apiKey,
  );

  beforeAll(async () => {
    system = await startSystem({
      kind: 'e2e-inb',
      services: ['account', 'document', 'inbound', 'gateway'],
      env: { LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn', INBOUND_CONFORMANCE_DIR: KIT },
      stdio: process.env.TEST_LOG_LEVEL ? 'inherit' : 'ignore',
    });
    dir = mkdtempSync(join(tmpdir(), 'inbound-e2e-'));
  });
  afterAll(async () => {
    await system?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('202, the job to finished, then the view in German and English', async () => {
    const res = await fetch(`${system.base}/inbound/`, {
      method: 'POST',
      headers: { 'x-api-key': system.apiKey, 'content-type': 'application/xml' },
      body: XR_UBL,
    });
    expect(res.status).toBe(202);
    const accepted = (await res.json()) as { id: number; document_id: number; status: string };
    expect(res.headers.get('location')).toBe(`/api/v1/inbound/${accepted.id}/job`);
    let job = accepted;
    while (job.status === 'queued' || job.status === 'started')
      job = (await api('GET', `/inbound/${accepted.id}/job?wait=25`)).body as typeof job;
    expect(job.status).toBe('finished');
    const doc = (await api('GET', `/inbound/${accepted.document_id}`)).body;
    expect(doc).toMatchObject({ status: 'RECEIVED', valid: true, format: 'xrechnung-ubl' });

    for (const [language, title, due] of [
      ['de', 'Eingangsrechnung 123456XX', 'Zahlbetrag'],
      ['en', 'Received invoice 123456XX', 'Amount due'],
    ] as const) {
      const link = await api('GET', `/inbound/${accepted.id}/pdf?language=${language}`);
      expect(link.status).toBe(200);
      const pdf = Buffer.from(await (await fetch(link.body.url as string)).arrayBuffer());
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      const file = join(dir, `${language}.pdf`);
      writeFileSync(file, pdf);
      const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\u00a0/g, ' ');
      const payable = doc.content.totals.payable as string;
      const shown = language === 'de' ? payable.replace('.', ',') : payable;
      for (const s of [title, doc.content.seller.name as string, due, shown]) expect(text).toContain(s);
    }
  });
});
