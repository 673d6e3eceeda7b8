import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { waitFor } from '@inv/testing';
import { apiClient, startSystem, type System } from '../support/system';

jest.setTimeout(300_000);

const KIT = process.env.INBOUND_CONFORMANCE_DIR ?? resolve(__dirname, '../../../shared/conformance');
const XR_UBL = readFileSync(join(KIT, 'xrechnung/examples/01.01a-INVOICE_ubl.xml'));

/**
 * Receiving an e-invoice across the real services: the upload through the gateway answers 202 with a job, the job is
 * long-polled to its end, and the PDF view of the XRechnung is rendered by document-service (pdftotext finds the
 * seller, the number and the amount due in both languages). Then the PDFs this system issues itself (ZUGFeRD with its
 * factur-x.xml, XRechnung with its xrechnung.xml UBL) are received back: valid, in the format they were issued in.
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
      services: ['account', 'customer', 'invoice', 'document', 'quota', 'inbound', 'gateway'],
      env: { LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn', INBOUND_CONFORMANCE_DIR: KIT },
      stdio: process.env.TEST_LOG_LEVEL ? 'inherit' : 'ignore',
    });
    dir = mkdtempSync(join(tmpdir(), 'inbound-e2e-'));
  });
  afterAll(async () => {
    await system?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Uploads a document and long-polls its job to the end; the received document. */
  const receive = async (body: Buffer, contentType: string) => {
    const res = await fetch(`${system.base}/inbound/`, {
      method: 'POST',
      headers: { 'x-api-key': system.apiKey, 'content-type': contentType },
      body,
    });
    expect(res.status).toBe(202);
    let job = (await res.json()) as { id: number; document_id: number; status: string; error_code?: string };
    while (job.status === 'queued' || job.status === 'started')
      job = (await api('GET', `/inbound/${job.id}/job?wait=25`)).body as typeof job;
    return { job, doc: (await api('GET', `/inbound/${job.document_id}`)).body };
  };

  it('receives the PDFs it issues itself: ZUGFeRD and XRechnung, valid, with the number, service period and amounts', async () => {
    const customer = await api('POST', '/customer/', {
      organization_name: 'Empfänger GmbH',
      email: 'ap@empfaenger.example',
      contact_type: 'B2B',
      language: 'German',
    });
    expect(customer.status).toBe(201);
    await api('POST', `/customer/${customer.body.id}/addresses`, {
      address_line_1: 'Hauptstraße 5',
      city: 'München',
      postal_code: '80331',
      country_code: 'DE',
      is_default: true,
    });
    for (const [format, extra, read] of [
      ['ZUGFERD', {}, 'factur-x'],
      ['XRECHNUNG', { buyer_reference: '04011000-12345-34' }, 'xrechnung-ubl'],
    ] as const) {
      const created = await api('POST', '/invoice/', {
        customer_id: customer.body.id,
        invoice_format: format,
        benefit_period_start: '2026-10-01',
        benefit_period_end: '2026-10-31',
        ...extra,
      });
      expect(created.status).toBe(201);
      const id = created.body.invoice_id as number;
      const position = { title: 'Wartung', quantity: 2, unit_id: 'HUR', unit_net_amount: 95, tax_rate: 0.19 };
      expect((await api('POST', `/invoice/${id}/positions`, position)).status).toBe(201);
      const job = await api('POST', `/invoice/${id}/job`, { task: 'process_invoice_flag_invoice_send_job' });
      expect(job.status).toBe(201);
      await waitFor(async () => (await api('GET', `/invoice/${id}/job/${job.body.job_id}`)).body.status === 'finished', {
        timeoutMs: 120_000,
        what: `${format} finalization`,
      });
      const invoice = (await api('GET', `/invoice/${id}`)).body;
      const pdf = Buffer.from(await (await fetch((await api('GET', `/invoice/${id}/pdf-link`)).body.url)).arrayBuffer());
      const { job: received, doc } = await receive(pdf, 'application/pdf');
      expect([format, received.status, received.error_code]).toEqual([format, 'finished', undefined]);
      expect(doc).toMatchObject({ status: 'RECEIVED', valid: true, format: read, media_type: 'application/pdf' });
      expect(doc.findings.filter((f: { severity: string }) => f.severity === 'fatal' || f.severity === 'error')).toEqual([]);
      expect(doc.content).toMatchObject({
        number: invoice.invoice_number,
        service_period: { start: '2026-10-01', end: '2026-10-31' },
        totals: { payable: '226.10' },
      });
    }
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
