import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { unzipSync } from 'fflate';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { spawnService, waitReady, type RunningService } from '@inv/runtime';
import { waitFor } from '@inv/testing';
import { apiClient, startSystem, type System } from '../support/system';
import { startOtlpSink, type CollectedSpan } from './otlp-sink';

jest.setTimeout(240_000);

/**
 * The walking skeleton through the gateway, every service its own process: customer -> address ->
 * invoice -> positions -> finalize job -> PDF link; plus auth, a restart mid-job and one trace per finalize.
 */
describe('e2e: finalize an invoice through the gateway', () => {
  const root = resolve(__dirname, '../..');
  let system: System;
  let sink: Awaited<ReturnType<typeof startOtlpSink>>;
  let running: RunningService[] = [];
  let env: NodeJS.ProcessEnv;
  let portOffset: number;
  let apiKey: string;
  let base: string;
  const api = apiClient(
    () => base,
    () => apiKey,
  );

  const finalize = async (invoiceId: number) => {
    const job = await api('POST', `/invoice/${invoiceId}/job`, { task: 'process_invoice_flag_invoice_send_job' });
    expect(job.status).toBe(201);
    return job.body.job_id as string;
  };
  const jobStatus = async (invoiceId: number, jobId: string) => (await api('GET', `/invoice/${invoiceId}/job/${jobId}`)).body;

  // a real SMTP server for the e-mail test
  const mails: Buffer[] = [];
  const smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => (mails.push(Buffer.concat(chunks)), callback()));
    },
  });

  beforeAll(async () => {
    sink = await startOtlpSink();
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
    const smtpPort = (smtp as unknown as { server: { address(): AddressInfo } }).server.address().port;
    system = await startSystem({
      kind: 'e2e',
      env: {
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        PRESIGNED_URL_TTL_SECONDS: '2',
        OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint,
        OTEL_BSP_SCHEDULE_DELAY: '200',
        LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
      },
      stdio: process.env.TEST_LOG_LEVEL ? 'inherit' : 'ignore',
    });
    ({ env, portOffset, apiKey, base } = system);
    running = system.running;
  });

  afterAll(async () => {
    if (system) {
      system.running = running; // the crash test replaces processes
      await system.stop();
    }
    await sink?.stop();
    await new Promise<void>((r) => smtp.close(() => r()));
  });

  it('answers 401 problem+json for a missing, malformed, unknown key', async () => {
    for (const key of [null, 'nope', `ak_live_${'0'.repeat(32)}`]) {
      const res = await api('GET', '/invoice/', undefined, key);
      expect(res.status).toBe(401);
      expect(res.type).toContain('application/problem+json');
      expect(res.body).toMatchObject({ status: 401, error_code: 'UNAUTHENTICATED', code: 'UNAUTHENTICATED' });
    }
  });

  let invoiceId: number;

  it('creates customer, billing address, invoice and positions with exact totals', async () => {
    const customer = await api('POST', '/customer/', {
      organization_name: 'Beispiel AG',
      email: 'ap@beispiel.example',
      contact_type: 'B2B',
      language: 'German',
      vat_id: null,
      is_active: true,
    });
    expect(customer.status).toBe(201);
    expect(customer.body).toMatchObject({ message: expect.any(String), id: expect.any(Number) });
    const address = await api('POST', `/customer/${customer.body.id}/addresses`, {
      address_line_1: 'Hauptstraße 5',
      city: 'München',
      postal_code: '80331',
      country_code: 'DE',
      is_default: true,
    });
    expect(address.status).toBe(201);
    const invoice = await api('POST', '/invoice/', { customer_id: customer.body.id, invoice_format: 'ZUGFERD', meta: null });
    expect(invoice.status).toBe(201);
    invoiceId = invoice.body.invoice_id;
    expect(
      (
        await api('POST', `/invoice/${invoiceId}/positions`, {
          title: 'Beratung',
          quantity: 7.5,
          unit_id: 'HUR',
          unit_net_amount: 95,
          single_net_amount: 712.5,
          tax_rate: 0.19,
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await api('POST', `/invoice/${invoiceId}/positions`, {
          title: 'Fachbuch',
          quantity: 1,
          unit_id: 'C62',
          unit_net_amount: 39.9,
          single_net_amount: 39.9,
          tax_rate: 0.07,
          tax_treatment_id: 'reduced',
        })
      ).status,
    ).toBe(201);
    const got = await api('GET', `/invoice/${invoiceId}`);
    expect(got.body).toMatchObject({ status: 'DRAFT', net_amount: 752.4, tax_amount: 138.17, gross_amount: 890.57 });
    expect(got.body.positions).toHaveLength(2);
    const validation = await api('GET', `/invoice/${invoiceId}/validate`);
    expect(validation.body).toMatchObject({ valid: true, errors: [] });
  });

  it('finalizes as an asynchronous job and serves the PDF through a short-lived link', async () => {
    const jobId = await finalize(invoiceId);
    const done = await waitFor(
      async () => {
        const job = await jobStatus(invoiceId, jobId);
        if (job.status === 'failed') throw new Error(`job failed: ${job.error_message}`);
        return job.status === 'finished' && job;
      },
      { timeoutMs: 60_000, what: 'finalize job' },
    );
    expect(done.started_at).not.toBeNull();
    const invoice = await api('GET', `/invoice/${invoiceId}`);
    expect(invoice.body.status).toBe('OPEN');
    expect(invoice.body.invoice_date).toBe(new Date().toISOString().slice(0, 10));
    const link = await api('GET', `/invoice/${invoiceId}/pdf-link`);
    expect(link.status).toBe(200);
    expect(link.body.filename).toMatch(/\.pdf$/);
    const pdf = await fetch(link.body.url);
    expect(pdf.status).toBe(200);
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    const xml = await api('GET', `/invoice/${invoiceId}/xml-link`);
    expect(xml.status).toBe(200);
    const xmlBody = await (await fetch(xml.body.url)).text();
    expect(xmlBody).toContain('CrossIndustryInvoice');
    await new Promise((r) => setTimeout(r, 3100)); // the link's lifetime (2 s) must pass: time is the subject here
    expect((await fetch(link.body.url)).status).toBe(403);
  });

  it('carries one trace from the gateway through invoice and document services', async () => {
    const spans = await waitFor(
      () => {
        const byTrace = new Map<string, Set<string>>();
        for (const s of sink.spans) byTrace.set(s.traceId, (byTrace.get(s.traceId) ?? new Set()).add(s.service));
        return [...byTrace.values()].find((services) => ['gateway', 'invoice-service', 'document-service'].every((n) => services.has(n)));
      },
      { timeoutMs: 60_000, what: 'a trace spanning gateway, invoice-service and document-service' },
    );
    expect(spans.has('gateway')).toBe(true);
  });

  it('traces the finalization gateway -> invoice-service -> bus -> document-service -> bus -> invoice-service with messaging attributes', async () => {
    const SERVER = 2;
    const PRODUCER = 4;
    const CONSUMER = 5;
    const hop = (trace: CollectedSpan[], service: string, kind: number, name: string) =>
      trace.find((sp) => sp.service === service && sp.kind === kind && sp.name === name);
    const path = await waitFor(
      () => {
        const consumed = sink.spans.filter((sp) => sp.service === 'invoice-service' && sp.name === 'process document.rendered.v1');
        for (const last of consumed) {
          const trace = sink.spans.filter((sp) => sp.traceId === last.traceId);
          const steps = [
            trace.find((sp) => sp.service === 'gateway' && sp.kind === SERVER),
            trace.find((sp) => sp.service === 'invoice-service' && sp.kind === SERVER),
            hop(trace, 'invoice-service', PRODUCER, 'publish document.render-invoice.v1'),
            hop(trace, 'document-service', CONSUMER, 'process document.render-invoice.v1'),
            hop(trace, 'document-service', PRODUCER, 'publish document.rendered.v1'),
            last,
          ];
          if (steps.every(Boolean)) return steps as CollectedSpan[];
        }
        return undefined;
      },
      { timeoutMs: 60_000, what: 'one trace from the gateway to the rendered event consumed by invoice-service' },
    );
    const [, , send, receive, reply, back] = path;
    // each bus hop continues the span that sent it
    expect(receive.parentSpanId).toBe(send.spanId);
    expect(back.parentSpanId).toBe(reply.spanId);
    for (const sp of [send, receive, reply, back]) {
      expect(sp.attributes['messaging.system']).toBe('rabbitmq');
      expect(sp.attributes['messaging.destination.name']).toEqual(expect.any(String));
      expect(sp.attributes['messaging.message.id']).toEqual(expect.any(String));
    }
    expect(send.attributes['messaging.operation.type']).toBe('send');
    expect(receive.attributes['messaging.operation.type']).toBe('process');
    expect(receive.attributes['messaging.rabbitmq.destination.routing_key']).toBe('document.render-invoice.v1');
    expect(back.attributes['messaging.rabbitmq.destination.routing_key']).toBe('document.rendered.v1');
  });

  it('reads, changes and deletes a position under /positions/{pid} as under /position/{pid}', async () => {
    const customerId = (await api('GET', `/invoice/${invoiceId}`)).body.customer_id;
    const id = (await api('POST', '/invoice/', { customer_id: customerId })).body.invoice_id as number;
    const line = { title: 'Wartung', quantity: 1, unit_id: 'MON', unit_net_amount: 250, tax_rate: 0.19 };
    const first = (await api('POST', `/invoice/${id}/positions`, line)).body.id as number;
    await api('POST', `/invoice/${id}/positions`, { ...line, title: 'Support' });
    expect((await api('GET', `/invoice/${id}/positions/${first}`)).body).toMatchObject({ title: 'Wartung' });
    expect((await api('PUT', `/invoice/${id}/positions/${first}`, { quantity: 2 })).status).toBe(200);
    expect((await api('GET', `/invoice/${id}/position/${first}`)).body).toMatchObject({ quantity: 2 });
    expect((await api('DELETE', `/invoice/${id}/positions/${first}`)).status).toBe(200);
    expect((await api('GET', `/invoice/${id}`)).body.positions.map((p: { title: string }) => p.title)).toEqual(['Support']);
    const plural = await api('GET', '/invoices/');
    expect(plural.status).toBe(404);
    expect(plural.body.suggested_path).toBe('/api/v1/invoice/');
  });

  it('finishes a job whose invoice- and document-service were killed right after it was accepted', async () => {
    const customerId = (await api('GET', `/invoice/${invoiceId}`)).body.customer_id;
    const created = await api('POST', '/invoice/', { customer_id: customerId });
    const id = created.body.invoice_id as number;
    await api('POST', `/invoice/${id}/positions`, { title: 'Wartung', quantity: 1, unit_id: 'MON', unit_net_amount: 250, tax_rate: 0.19 });
    const jobId = await finalize(id);
    // Crash both workers of the pipeline wherever they are: the job is in MongoDB, its command in the
    // outbox or the queue, and whatever a dead process had not acknowledged is delivered again.
    for (const name of ['invoice', 'document'] as const) {
      running.find((s) => s.name === name)!.child.kill('SIGKILL');
    }
    for (const name of ['invoice', 'document'] as const) {
      const old = running.find((s) => s.name === name)!;
      await new Promise<void>((r) =>
        old.child.exitCode !== null || old.child.signalCode !== null ? r() : old.child.once('exit', () => r()),
      );
      const restarted = spawnService(name, { root, services: [name], env, portOffset, stdio: 'ignore' });
      running = running.map((s) => (s.name === name ? restarted : s));
      await waitReady(restarted, 60_000);
    }
    const job = await waitFor(
      async () => {
        const j = await jobStatus(id, jobId);
        return (j.status === 'finished' || j.status === 'failed') && j;
      },
      { timeoutMs: 60_000, what: 'job after restart' },
    );
    expect(job.status).toBe('finished');
    expect((await api('GET', `/invoice/${id}`)).body.status).toBe('OPEN');
  });

  it('finalizes ZUGFeRD, PEPPOL and XRechnung invoices whose XML passes the official rules', async () => {
    const customer = await api('POST', '/customer/', {
      organization_name: 'Bundesamt für Beispiele',
      vat_id: 'DE 143 454 214',
      email: 'rechnung@bund.example',
      language: 'German',
    });
    expect(customer.status).toBe(201);
    await api('POST', `/customer/${customer.body.id}/addresses`, {
      address_line_1: 'Platz der Republik 1',
      city: 'Berlin',
      postal_code: '11011',
      country_code: 'DE',
    });
    await waitFor(async () => (await api('GET', `/customer/${customer.body.id}`)).body.vat_check?.status === 'valid', {
      what: 'VAT check (simulated VIES)',
    });
    const files: Record<string, string> = {};
    for (const [format, extra] of [
      ['ZUGFERD', {}],
      ['PEPPOL', { buyer_reference: 'PO-4711' }],
      ['XRECHNUNG', { buyer_reference: '04011000-12345-34' }],
    ] as const) {
      const created = await api('POST', '/invoice/', { customer_id: customer.body.id, invoice_format: format, ...extra });
      const id = created.body.invoice_id as number;
      await api('POST', `/invoice/${id}/positions`, {
        title: 'Gutachten',
        quantity: 12.5,
        unit_id: 'HUR',
        unit_net_amount: 142.4,
        tax_rate: 0.19,
        discount_type: 'PERCENTAGE',
        discount_value: 3,
      });
      await api('POST', `/invoice/${id}/positions`, {
        title: 'Reisekosten',
        quantity: 1,
        unit_id: 'C62',
        unit_net_amount: 86.35,
        tax_rate: 0.19,
      });
      const validation = (await api('GET', `/invoice/${id}/validate`)).body;
      expect({ format, ...validation }).toMatchObject({ format, valid: true, errors: [], vat_check: { status: 'valid' } });
      const jobId = await finalize(id);
      await waitFor(async () => (await jobStatus(id, jobId)).status === 'finished', { timeoutMs: 60_000, what: `${format} job` });
      const link = await api('GET', `/invoice/${id}/xml-link`);
      files[format] = await (await fetch(link.body.url)).text();
      if (format === 'PEPPOL') continue;
      // A credit note of the finalized invoice finalizes as it comes (BR-CO-25: its terms say how it is settled).
      const credit = await api('POST', `/invoice/${id}/credit-note`);
      expect(credit.status).toBe(201);
      const creditId = credit.body.invoice_id as number;
      expect((await api('GET', `/invoice/${creditId}/validate`)).body).toMatchObject({ valid: true, errors: [] });
      const creditJob = await finalize(creditId);
      await waitFor(async () => (await jobStatus(creditId, creditJob)).status === 'finished', {
        timeoutMs: 60_000,
        what: `${format} credit note job`,
      });
      files[`${format}_CREDIT`] = await (await fetch((await api('GET', `/invoice/${creditId}/xml-link`)).body.url)).text();
    }
    const validate = resolve(root, '../shared/conformance/validate');
    if (!existsSync(validate)) return console.warn(`${validate} not found: official-rules check skipped`);
    const dir = mkdtempSync(join(tmpdir(), 'e2e-xml-'));
    const kits = [
      ['ZUGFERD', 'cii-en16931'],
      ['PEPPOL', 'peppol-ubl'],
      ['XRECHNUNG', 'xrechnung-ubl'],
      ['ZUGFERD_CREDIT', 'cii-en16931'],
      ['XRECHNUNG_CREDIT', 'xrechnung-ubl'],
    ] as const;
    for (const [format, kit] of kits) {
      const file = join(dir, `${format}.xml`);
      writeFileSync(file, files[format]);
      const { stdout } = await promisify(execFile)(validate, [kit, file], { timeout: 180_000 }).catch((err: { stdout?: string }) => ({
        stdout: err.stdout ?? String(err),
      }));
      expect(stdout).toContain(`PASS ${file}`);
    }
  });

  it('works the way the published SDK calls it: bare arrays, nulls, meta object, its quick-start VAT ID', async () => {
    // The SDK sends every optional field as null, and extra keys.
    const customer = await api('POST', '/customer/', {
      organization_name: 'Quick Start GmbH',
      first_name: null,
      last_name: null,
      salutation: null,
      email: 'ap@quick.example',
      phone: null,
      contact_type: 'B2B',
      vat_id: 'DE123456789',
      language: 'German',
      payment_term_id: null,
      default_ftl_template_id: null,
      is_active: true,
    });
    expect(customer.status).toBe(201);
    const cid = customer.body.id as number;
    expect(
      (
        await api('POST', `/customer/${cid}/addresses`, {
          address_line_1: 'Musterweg 1',
          address_line_2: null,
          city: 'Köln',
          postal_code: '50667',
          country_code: 'DE',
          is_default: true,
          type: null,
        })
      ).status,
    ).toBe(201);
    const listRes = await fetch(`${base}/customer/?page=1&limit=2`, { headers: { 'x-api-key': apiKey } });
    expect(Array.isArray(await listRes.json())).toBe(true);
    expect(Number(listRes.headers.get('x-total-count'))).toBeGreaterThan(0);
    expect(listRes.headers.get('link')).toContain('rel="first"');
    const addresses = await fetch(`${base}/customer/${cid}/addresses`, { headers: { 'x-api-key': apiKey } });
    expect(await addresses.json()).toEqual([expect.objectContaining({ type: 'billing', is_default: true })]);
    expect((await api('GET', `/customer/${cid}`)).body.vat_check).toMatchObject({ status: 'invalid', reason: 'checksum' });

    const meta = { order: 'PO-1', tags: ['a', 'b'], nested: { n: 1 } };
    const invoice = await api('POST', '/invoice/', {
      customer_id: cid,
      meta,
      invoice_format: null,
      benefit_period_start: null,
      note: null,
    });
    expect(invoice.status).toBe(201);
    const id = invoice.body.invoice_id as number;
    expect((await api('GET', `/invoice/${id}`)).body.meta).toEqual(meta);
    // single_net_amount as a binary-float client computes it
    expect(
      (
        await api('POST', `/invoice/${id}/positions`, {
          title: 'Beratung',
          quantity: 12,
          unit_id: 'HUR',
          unit_net_amount: 33.333,
          single_net_amount: 12 * 33.333,
          tax_rate: 0.19,
          description: null,
          discount_type: null,
          discount_value: null,
        })
      ).status,
    ).toBe(201);
    const validation = (await api('GET', `/invoice/${id}/validate`)).body;
    expect(validation.vat_check).toEqual({ status: 'invalid' });
    const refused = await api('POST', `/invoice/${id}/job`, { task: 'process_invoice_flag_invoice_send_job' });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('VAT_OVERRIDE_REQUIRED');
    const job = await api('POST', `/invoice/${id}/job`, { task: 'process_invoice_flag_invoice_send_job', vat_override_confirmed: true });
    expect(job.status).toBe(201);
    await waitFor(async () => (await jobStatus(id, job.body.job_id)).status === 'finished', { timeoutMs: 60_000, what: 'override job' });
    const invoices = await fetch(`${base}/invoice/?page=1&limit=25`, { headers: { 'x-api-key': apiKey } });
    const page = (await invoices.json()) as { total: number };
    expect(page).toMatchObject({ page: 1, limit: 25, total: expect.any(Number) });
    expect(invoices.headers.get('x-total-count')).toBe(String(page.total));
  });

  it('exports to DATEV the way the published SDK does: config, mappings, job, polling, download link, delete', async () => {
    const config = await api('PUT', '/datev/config', {
      consultant_number: 29098,
      client_number: 55003,
      chart_of_accounts: 'SKR03',
      fiscal_year_start_month: 1,
    });
    expect(config.status).toBe(200);
    expect((await api('GET', '/acctexp/mappings')).body.mappings).toHaveLength(7);
    expect(
      (await api('PUT', '/acctexp/mappings', { mappings: [{ tax_treatment: 'standard', tax_rate: 0.19, account: 8400 }] })).status,
    ).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    const start = await api('POST', '/exports/job', {
      task: 'process_datev_export_job',
      start_date: `${today.slice(0, 4)}-01-01`,
      end_date: today,
      include_master_data: true,
      include_documents: true,
      only_new: false,
    });
    expect(start.status).toBe(201);
    const job = await waitFor(
      async () => {
        const j = (await api('GET', `/exports/job/${start.body.job_id}`)).body;
        if (j.status === 'failed') throw new Error(`export failed: ${j.error_message}`);
        return j.status === 'finished' && j;
      },
      { timeoutMs: 60_000, intervalMs: 200, what: 'export job' },
    );
    expect(job.result).toMatchObject({ download_ids: [expect.any(Number)], is_split: false, total_invoice_count: expect.any(Number) });
    expect(job.result.total_invoice_count).toBeGreaterThanOrEqual(1);
    const list = await fetch(`${base}/downloads/`, { headers: { 'x-api-key': apiKey } });
    const downloads = (await list.json()) as { id: number; filename: string }[];
    expect(downloads[0]).toMatchObject({
      id: job.result.download_ids[0],
      filename: expect.stringMatching(/^DATEV_EXTF_29098_55003_.*\.zip$/),
    });
    const link = await api('GET', `/downloads/${job.result.download_ids[0]}/download`);
    expect(link.body).toMatchObject({ url: expect.any(String), filename: downloads[0]!.filename });
    const zip = unzipSync(new Uint8Array(await (await fetch(link.body.url)).arrayBuffer()));
    const number = (await api('GET', `/invoice/${invoiceId}`)).body.invoice_number as string;
    const bookings = new TextDecoder('windows-1252').decode(Object.entries(zip).find(([n]) => n.startsWith('EXTF_Buchungsstapel_'))![1]);
    expect(bookings.startsWith('"EXTF";700;21;"Buchungsstapel";13;')).toBe(true);
    expect(bookings).toContain(`"${number}"`);
    const pdfs = Object.keys(zip).filter((n) => n.endsWith('.pdf'));
    expect(pdfs.length).toBe(job.result.total_invoice_count);
    expect(Buffer.from(zip[pdfs[0]!]!).subarray(0, 5).toString()).toBe('%PDF-');
    expect(Object.keys(zip)).toEqual(expect.arrayContaining(['document.xml', expect.stringMatching(/^EXTF_Debitoren_/)]));
    // one trace from the request through the outbox and the bus into the job's run
    await waitFor(
      () => {
        const run = sink.spans.find((sp) => sp.service === 'export-service' && sp.name === 'export.run');
        return run && sink.spans.some((sp) => sp.traceId === run.traceId && sp.service === 'gateway');
      },
      { timeoutMs: 60_000, what: 'a trace from the gateway into the export run' },
    );
    const del = await api('DELETE', `/downloads/${job.result.download_ids[0]}`);
    expect(del.body).toEqual({ message: expect.any(String) });
    expect((await api('GET', `/downloads/${job.result.download_ids[0]}/download`)).status).toBe(404);
  });

  it('uploads an attachment through the gateway, embeds it in the PDF/A-3 and sends the invoice by e-mail', async () => {
    // the customer's address: send_email goes only to the customer's (or the seller's) addresses by default
    const customer = await api('POST', '/customer/', {
      organization_name: 'Mail AG',
      language: 'English',
      contact_type: 'B2B',
      email: 'ap@mail.example',
    });
    await api('POST', `/customer/${customer.body.id}/addresses`, {
      address_line_1: 'Weg 1',
      city: 'Köln',
      postal_code: '50667',
      country_code: 'DE',
      is_default: true,
    });
    const id = (await api('POST', '/invoice/', { customer_id: customer.body.id, invoice_format: 'ZUGFERD' })).body.invoice_id as number;
    await api('POST', `/invoice/${id}/positions`, { title: 'Beratung', quantity: 1, unit_id: 'HUR', unit_net_amount: 100, tax_rate: 0.19 });
    const terms = Buffer.concat([Buffer.from('%PDF-1.7\n% terms\n'), Buffer.alloc(4000, 0x20)]);
    const form = new FormData();
    form.append('file', new Blob([terms]), 'terms.pdf');
    const up = await fetch(`${base}/invoice/${id}/attachments`, { method: 'POST', headers: { 'x-api-key': apiKey }, body: form });
    expect(up.status).toBe(201);
    const attachment = (await up.json()) as { id: number };
    const exe = new FormData();
    exe.append('file', new Blob([Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200)])]), 'invoice.pdf');
    expect((await fetch(`${base}/invoice/${id}/attachments`, { method: 'POST', headers: { 'x-api-key': apiKey }, body: exe })).status).toBe(
      415,
    );
    const jobId = await finalize(id);
    await waitFor(async () => (await jobStatus(id, jobId)).status === 'finished', { timeoutMs: 60_000, what: 'finalize job' });
    const pdf = Buffer.from(await (await fetch((await api('GET', `/invoice/${id}/pdf-link`)).body.url)).arrayBuffer());
    expect(pdf.toString('latin1')).toMatch(/\/AFRelationship \/Supplement/);
    const sent = await api('POST', `/invoice/${id}/send_email`, { to: 'ap@mail.example', attachment_ids: [attachment.id] });
    expect(sent.status).toBe(202);
    const email = await waitFor(
      async () => {
        const e = (await api('GET', `/invoice/${id}/emails`)).body.emails[0];
        return e?.status === 'sent' && e;
      },
      { timeoutMs: 60_000, what: 'the e-mail' },
    );
    expect(email.attachments).toHaveLength(3);
    const parsed = await simpleParser(mails.at(-1)!);
    expect(parsed.subject).toMatch(/^Invoice /);
    const names = parsed.attachments.map((a) => a.filename);
    expect(names).toEqual(expect.arrayContaining(['terms.pdf', expect.stringMatching(/\.xml$/)]));
    expect(parsed.attachments.find((a) => a.filename === 'terms.pdf')!.content.equals(terms)).toBe(true);
    expect((await api('GET', `/invoice/${id}`)).body.status).toBe('SENT');
  });

  it('answers hostile requests through the gateway with 4xx problems', async () => {
    expect((await api('GET', '/invoice/%C0%AF')).status).toBe(400);
    const big = await fetch(`${base}/invoice/`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'text/plain' },
      body: 'x'.repeat(2 * 1024 * 1024),
    });
    expect(big.status).toBe(413);
    const plain = await fetch(`${base}/invoice/`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'text/plain' },
      body: '{"customer_id":1}',
    });
    expect(plain.status).toBe(415);
    const wrong = await api('DELETE', '/invoice/');
    expect(wrong.status).toBe(405);
    const deep = await fetch(`${base}/invoice/`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: '['.repeat(10_000) + ']'.repeat(10_000),
    });
    expect(deep.status).toBe(400);
  });

  it('answers unknown paths and bad ids with problem+json', async () => {
    const missing = await api('GET', '/invoice/999999');
    expect(missing.status).toBe(404);
    expect(missing.type).toContain('application/problem+json');
    expect((await api('GET', '/nope')).status).toBe(404);
    const bad = await api('POST', '/customer/', { contact_type: 'B2B', salutation: 'mr' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['organization_name', 'salutation']);
  });
});
