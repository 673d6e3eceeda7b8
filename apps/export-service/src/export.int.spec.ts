import { randomBytes } from 'node:crypto';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { unzipSync } from 'fflate';
import mongoose from 'mongoose';
import type { Bus } from '@inv/bus';
import type { Messages } from '@inv/contracts';
import { startEmbeddedMongo } from '@inv/embedded-mongo';
import { createObjectStore, startEmbeddedS3, type EmbeddedS3, type ObjectStore } from '@inv/objects';
import { freeServicesPortOffset, launchServices, stopServices, type RunningService } from '@inv/runtime';
import { deleteBrokerObjects, identityHeaders, peerBus, testEnv, uniquePrefix, waitFor } from '@inv/testing';

/**
 * export-service as its own process, fed by invoice events from a second bus (playing invoice-service),
 * storing ZIPs in an embedded S3 behind a proxy the test can hold (to kill the service mid-upload). The
 * ZIPs are read back with an independent reader written here: fflate to unzip, the platform's
 * TextDecoder for Windows-1252 and a small quote-aware CSV splitter; none of the writer's code.
 */

// Response bodies are inspected loosely in tests.
type Json = any;

// ---------- the independent EXTF reader ----------
function splitCsvLine(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ';') {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

function readExtf(bytes: Uint8Array) {
  const text = new TextDecoder('windows-1252').decode(bytes);
  expect(text.endsWith('\r\n')).toBe(true);
  expect(text.replace(/\r\n/g, '').includes('\n')).toBe(false); // CRLF only
  const lines = text.split('\r\n').slice(0, -1);
  return { raw: lines, header: splitCsvLine(lines[0]!), headings: splitCsvLine(lines[1]!), rows: lines.slice(2).map(splitCsvLine) };
}

const cents = (s: string) => Math.round(Number(s.replace(',', '.')) * 100);

// ---------- a proxy in front of S3 that can hold uploads ----------
function holdingProxy(target: string) {
  const t = new URL(target);
  let holding = false;
  let held = 0;
  const server: Server = createServer((req, res) => {
    if (holding && req.method !== 'GET' && req.method !== 'HEAD') {
      held++;
      return; // never answered: the uploader waits until it is killed
    }
    const up = httpRequest({ host: t.hostname, port: t.port, method: req.method, path: req.url, headers: req.headers }, (ur) => {
      res.writeHead(ur.statusCode ?? 502, ur.headers);
      ur.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  return {
    async start() {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    hold: () => {
      holding = true;
      held = 0;
    },
    release: () => {
      holding = false;
    },
    held: () => held,
    stop: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

describe('export-service: DATEV export end to end', () => {
  const prefix = uniquePrefix('exp');
  const company = `cmp_exp_${randomBytes(4).toString('hex')}`;
  const other = `cmp_other_${randomBytes(4).toString('hex')}`;
  let portOffset = 0; // chosen in beforeAll: every service port free, below the ephemeral range
  let stopMongo: () => Promise<void>;
  let s3: EmbeddedS3;
  let store: ObjectStore;
  let proxyHolder: ReturnType<typeof holdingProxy>;
  let env: NodeJS.ProcessEnv;
  let running: RunningService[] = [];
  let peer: Bus<Messages>;
  let db: mongoose.Connection;
  let base: string;

  const launch = async () => {
    running = await launchServices({
      root: resolve(__dirname, '../../..'),
      services: ['export'],
      env,
      portOffset,
      stdio: 'ignore',
      readyTimeoutMs: 90_000,
    });
    base = running[0]!.url;
  };

  const call = async (
    method: string,
    path: string,
    body?: unknown,
    as = company,
  ): Promise<{ status: number; body: Json; headers: Headers }> => {
    const headers: Record<string, string> = { accept: 'application/json', ...(await identityHeaders(as)) };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
  };

  const pdfKey = (id: number) => `${company}/invoices/${id}/invoice-${id}.pdf`;
  const pdfBytes = (id: number) => Buffer.from(`%PDF-1.7 test document ${id}\n%%EOF\n`);
  const buyerCo = {
    name: 'Müller & Söhne GmbH',
    vatId: 'DE123456788',
    address: { line1: 'Hauptstraße 1', city: 'Köln', postalCode: '50667', countryCode: 'DE' },
    contact: { email: 'buchhaltung@mueller.example' },
  };
  const buyerGr = {
    name: 'Ελληνική Εταιρεία',
    vatId: 'EL094014201',
    address: { line1: 'Odos 5', city: 'Athina', postalCode: '10431', countryCode: 'GR' },
  };
  const buyerPerson = {
    name: 'Erika Mustermann',
    firstName: 'Erika',
    lastName: 'Mustermann',
    address: { line1: 'Weg 2', city: 'Bonn', postalCode: '53111', countryCode: 'DE' },
  };
  type Group = { category: string; rate: string; treatment: string; net: string; vat: string };
  const finalized = (
    invoiceId: number,
    o: { number: string; date: string; customerNumber: number; buyer: Json; groups: Group[]; credit?: boolean; preceding?: string },
  ) => {
    const net = o.groups.reduce((s, g) => s + Number(g.net), 0);
    const vat = o.groups.reduce((s, g) => s + Number(g.vat), 0);
    return {
      invoiceId,
      number: o.number,
      typeCode: (o.credit ? '381' : '380') as '380' | '381',
      customerId: o.customerNumber - 10_000,
      invoiceDate: o.date,
      dueDate: o.credit ? undefined : o.date,
      currency: 'EUR',
      totalNet: net.toFixed(2),
      totalVat: vat.toFixed(2),
      totalGross: (net + vat).toFixed(2),
      reservationId: `r-${invoiceId}`,
      customerNumber: o.customerNumber,
      buyer: o.buyer,
      vatBreakdown: o.groups,
      serviceDate: o.date,
      precedingInvoiceNumber: o.preceding,
      pdf: { key: pdfKey(invoiceId), filename: `${o.number}.pdf`, contentType: 'application/pdf', size: pdfBytes(invoiceId).length },
    };
  };
  const invoices = [
    finalized(1, {
      number: 'RE-2025-0100',
      date: '2025-11-15',
      customerNumber: 10001,
      buyer: buyerCo,
      groups: [
        { category: 'S', rate: '19', treatment: 'standard', net: '1000.00', vat: '190.00' },
        { category: 'S', rate: '7', treatment: 'reduced', net: '100.00', vat: '7.00' },
      ],
    }),
    finalized(2, {
      number: 'RE-2025-0101',
      date: '2025-12-31',
      customerNumber: 10002,
      buyer: buyerGr,
      groups: [{ category: 'K', rate: '0', treatment: 'intra_community', net: '500.00', vat: '0.00' }],
    }),
    finalized(3, {
      number: 'GS-2026-0001',
      date: '2026-01-02',
      customerNumber: 10001,
      buyer: buyerCo,
      credit: true,
      preceding: 'RE-2025-0100',
      groups: [{ category: 'S', rate: '19', treatment: 'standard', net: '100.00', vat: '19.00' }],
    }),
    finalized(4, {
      number: 'RE-2026-0002',
      date: '2026-02-10',
      customerNumber: 10003,
      buyer: buyerPerson,
      groups: [{ category: 'S', rate: '19', treatment: 'standard', net: '33.61', vat: '6.39' }],
    }),
    finalized(5, {
      number: 'RE-2026-0003',
      date: '2026-04-01',
      customerNumber: 10003,
      buyer: buyerPerson,
      groups: [{ category: 'S', rate: '19', treatment: 'standard', net: '10.00', vat: '1.90' }],
    }),
  ];

  const projected = (n: number) =>
    waitFor(
      async () =>
        (await db.collection('export_invoices').countDocuments({ companyId: company, finalized: true })) >= n ? true : undefined,
      { timeoutMs: 15_000, what: `${n} projected invoices` },
    );

  const runJob = async (body: Json) => {
    const started = await call('POST', '/exports/job', {
      task: 'process_acctexp_export_job',
      include_master_data: false,
      include_documents: false,
      only_new: false,
      ...body,
    });
    expect(started.status).toBe(201);
    return waitFor(
      async () => {
        const r = await call('GET', `/exports/job/${started.body.job_id}`);
        return r.body.status === 'finished' || r.body.status === 'failed' ? r.body : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 50, what: 'export job' },
    );
  };

  const fetchZip = async (id: number) => {
    const link = await call('GET', `/downloads/${id}/download`);
    expect(link.status).toBe(200);
    const res = await fetch(link.body.url);
    expect(res.status).toBe(200);
    return { name: link.body.filename as string, files: unzipSync(new Uint8Array(await res.arrayBuffer())) };
  };

  beforeAll(async () => {
    portOffset = await freeServicesPortOffset();
    const mongo = await startEmbeddedMongo();
    stopMongo = mongo.stop;
    s3 = await startEmbeddedS3();
    proxyHolder = holdingProxy(s3.endpoint);
    const proxyUrl = await proxyHolder.start();
    env = {
      ...process.env,
      ...testEnv(prefix, mongo.uri, {
        S3_ENDPOINT: proxyUrl,
        S3_ACCESS_KEY: s3.accessKey,
        S3_SECRET_KEY: s3.secretKey,
        S3_BUCKET: 'exports-test',
      }),
    };
    delete env.PORT;
    store = createObjectStore({
      endpoint: s3.endpoint,
      accessKey: s3.accessKey,
      secretKey: s3.secretKey,
      bucket: 'exports-test',
      presignTtlSeconds: 60,
    });
    await store.ensureBucket();
    for (const inv of invoices) await store.put(pdfKey(inv.invoiceId), pdfBytes(inv.invoiceId), 'application/pdf');
    db = mongoose.createConnection(mongo.uri, { dbName: `${env.MONGO_DATABASE_PREFIX}invoicing_export` });
    await launch();
    peer = peerBus(prefix);
    await peer.start();
  }, 120_000);

  afterAll(async () => {
    await stopServices(running);
    await peer?.stop();
    await deleteBrokerObjects(prefix);
    await db?.close();
    await proxyHolder?.stop();
    await s3?.stop();
    await stopMongo?.();
  }, 60_000);

  it('validates the configuration and refuses an export without consultant and client number', async () => {
    expect((await call('GET', '/acctexp/config')).body).toEqual({
      consultant_number: null,
      client_number: null,
      chart_of_accounts: 'SKR03',
      fiscal_year_start_month: 1,
      account_length: 4,
    });
    const bad = await call('PUT', '/acctexp/config', { account_length: 9, fiscal_year_start_month: 13, consultant_number: 12 });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: Json) => e.path).sort()).toEqual(['account_length', 'consultant_number', 'fiscal_year_start_month']);
    const missing = await call('POST', '/exports/job', {
      task: 'process_datev_export_job',
      start_date: '2025-01-01',
      end_date: '2025-12-31',
    });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e: Json) => e.path)).toEqual(['consultant_number', 'client_number']);
    const saved = await call('PUT', '/datev/config', {
      consultant_number: 29098,
      client_number: 55003,
      chart_of_accounts: 'SKR03',
      fiscal_year_start_month: 1,
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ message: expect.any(String), consultant_number: 29098, client_number: 55003, account_length: 4 });
  });

  it('saves mappings as a batch: one bad row saves nothing; reset restores the chart defaults', async () => {
    const initial = await call('GET', '/acctexp/mappings');
    expect(initial.body.mappings).toHaveLength(7);
    expect(initial.body.mappings.map((m: Json) => m.account)).toEqual([8400, 8300, 8336, 8125, 8120, 8100, 8338]);
    const bad = await call('PUT', '/acctexp/mappings', {
      mappings: [
        { tax_treatment: 'exempt', account: 8101 },
        { tax_treatment: 'nonsense', account: 8000 },
        { tax_treatment: 'standard', tax_rate: 0.19, account: 840 },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: Json) => e.path)).toEqual(['mappings.1.tax_treatment', 'mappings.2.account']);
    expect((await call('GET', '/acctexp/mappings')).body.mappings.find((m: Json) => m.tax_treatment === 'exempt').account).toBe(8100);
    const good = await call('PUT', '/acctexp/mappings', { mappings: [{ tax_treatment: 'exempt', account: 8101 }] });
    expect(good.status).toBe(200);
    expect(good.body.mappings.find((m: Json) => m.tax_treatment === 'exempt')).toMatchObject({ account: 8101, is_default: false });
    const reset = await call('POST', '/acctexp/mappings/reset');
    expect(reset.body.mappings.find((m: Json) => m.tax_treatment === 'exempt')).toMatchObject({ account: 8100, is_default: true });
    // rows read can be sent back as they are (label and is_default are read-only); a misspelt field is refused
    const rows = reset.body.mappings.map((m: Json) => (m.tax_treatment === 'exempt' ? { ...m, account: 8102 } : m));
    const roundTrip = await call('PUT', '/acctexp/mappings', { mappings: rows });
    expect(roundTrip.status).toBe(200);
    expect(roundTrip.body.mappings.find((m: Json) => m.tax_treatment === 'exempt')).toMatchObject({
      account: 8102,
      label: expect.any(String),
    });
    const typo = await call('PUT', '/acctexp/mappings', { mappings: [{ tax_treatment: 'exempt', acount: 8103 }] });
    expect([typo.status, typo.body.code, typo.body.errors[0].path]).toEqual([400, 'UNKNOWN_FIELD', 'mappings.0.acount']);
    await call('POST', '/acctexp/mappings/reset');
  });

  it('refuses bad periods with 400 naming the field', async () => {
    const post = (b: Json) => call('POST', '/exports/job', { task: 'process_acctexp_export_job', ...b });
    expect((await post({ start_date: '2026-02-30', end_date: '2026-03-01' })).status).toBe(400);
    const reversed = await post({ start_date: '2026-03-01', end_date: '2026-01-01' });
    expect([reversed.status, reversed.body.errors[0].path]).toEqual([400, 'end_date']);
    expect((await post({ start_date: '2010-01-01', end_date: '2020-01-01' })).status).toBe(400);
    expect((await post({ start_date: '2010-01-01', end_date: '2019-12-31' })).status).toBe(201);
    expect((await post({ task: 'something_else', start_date: '2026-01-01', end_date: '2026-01-31' })).status).toBe(400);
  });

  it('projects finalized invoices once, even when an event is delivered twice', async () => {
    for (const inv of invoices) await peer.publishEvent('invoice.finalized.v1', company, inv as never, { id: `fin-${inv.invoiceId}` });
    await peer.publishEvent('invoice.finalized.v1', company, invoices[0] as never, { id: 'fin-1' }); // redelivery
    await peer.publishEvent(
      'invoice.status-changed.v1',
      company,
      { invoiceId: 1, customerId: 1, status: 'PAID', paidDate: '2025-12-01' },
      { id: 'paid-1' },
    );
    await projected(5);
    const docs = await db.collection('export_invoices').find({ companyId: company }).toArray();
    expect(docs).toHaveLength(5);
    await waitFor(
      async () =>
        (await db.collection('export_invoices').findOne({ companyId: company, invoiceId: 1 }))?.status === 'PAID' ? true : undefined,
      { what: 'payment state' },
    );
  });

  it('keeps a status that overtook the finalized event (PAID stays PAID once the invoice is projected)', async () => {
    const other = `${company}_overtaken`;
    await peer.publishEvent('invoice.status-changed.v1', other, { invoiceId: 1, customerId: 1, status: 'PAID', paidDate: '2025-12-02' });
    const placeholder = await waitFor(
      async () => (await db.collection('export_invoices').findOne({ companyId: other, invoiceId: 1 })) ?? undefined,
      { what: 'the placeholder' },
    );
    expect(placeholder).toMatchObject({ status: 'PAID', finalized: false });
    await peer.publishEvent('invoice.finalized.v1', other, invoices[0] as never);
    const doc = await waitFor(
      async () => (await db.collection('export_invoices').findOne({ companyId: other, invoiceId: 1, finalized: true })) ?? undefined,
      { what: 'the projected invoice' },
    );
    expect(doc).toMatchObject({ status: 'PAID', paidDate: '2025-12-02', number: 'RE-2025-0100' });
  });

  it('finishes an empty period with no_invoices_found', async () => {
    const job = await runJob({ start_date: '2020-01-01', end_date: '2020-12-31' });
    expect(job.status).toBe('finished');
    expect(job.result).toEqual({
      download_ids: [],
      is_split: false,
      split_reason: null,
      total_invoice_count: 0,
      error: { message: expect.any(String), error_code: 'no_invoices_found' },
    });
    // announced with the finished job, through the outbox (webhook-service turns it into export.finished)
    expect(await db.collection('outbox').findOne({ type: 'export.finished.v1', 'data.jobId': job.job_id })).toMatchObject({
      _id: `export-finished:${job.job_id}`,
    });
  });

  let firstIds: number[] = [];
  it('splits a period across a fiscal-year boundary into one ZIP per year, every row matching its invoice', async () => {
    const job = await runJob({
      task: 'process_datev_export_job',
      start_date: '2025-10-01',
      end_date: '2026-03-31',
      include_master_data: true,
      include_documents: true,
    });
    expect(job).toMatchObject({
      status: 'finished',
      progress: 100,
      result: { is_split: true, split_reason: 'year_boundary', total_invoice_count: 4 },
    });
    firstIds = job.result.download_ids;
    expect(firstIds).toHaveLength(2);

    const years = [
      { zip: await fetchZip(firstIds[0]!), fy: '20250101', from: '20251001', to: '20251231', invoices: [invoices[0]!, invoices[1]!] },
      { zip: await fetchZip(firstIds[1]!), fy: '20260101', from: '20260101', to: '20260331', invoices: [invoices[2]!, invoices[3]!] },
    ];
    expect(years.map((y) => y.zip.name)).toEqual([
      'DATEV_EXTF_29098_55003_20251001_20251231.zip',
      'DATEV_EXTF_29098_55003_20260101_20260331.zip',
    ]);
    for (const y of years) {
      const names = Object.keys(y.zip.files).sort();
      expect(names).toEqual(
        [
          `EXTF_Buchungsstapel_${y.from}_${y.to}.csv`,
          `EXTF_Debitoren_${y.from}_${y.to}.csv`,
          'document.xml',
          ...y.invoices.map((i) => `${i.number}_${i.invoiceId}.pdf`),
        ].sort(),
      );
      const b = readExtf(y.zip.files[`EXTF_Buchungsstapel_${y.from}_${y.to}.csv`]!);
      // header: 31 fields from the configuration
      expect(b.header).toHaveLength(31);
      expect([b.header[0], b.header[1], b.header[2], b.header[3], b.header[4]]).toEqual(['EXTF', '700', '21', 'Buchungsstapel', '13']);
      expect([b.header[10], b.header[11], b.header[12], b.header[13], b.header[14], b.header[15]]).toEqual([
        '29098',
        '55003',
        y.fy,
        '4',
        y.from,
        y.to,
      ]);
      expect([b.header[21], b.header[26]]).toEqual(['EUR', '03']);
      expect(b.raw[0]!.startsWith('"EXTF";700;21;"Buchungsstapel";13;')).toBe(true);
      // headings: all 125 columns
      expect(b.headings).toHaveLength(125);
      expect([
        b.headings[0],
        b.headings[6],
        b.headings[7],
        b.headings[9],
        b.headings[10],
        b.headings[19],
        b.headings[39],
        b.headings[114],
        b.headings[124],
      ]).toEqual([
        'Umsatz (ohne Soll/Haben-Kz)',
        'Konto',
        'Gegenkonto (ohne BU-Schlüssel)',
        'Belegdatum',
        'Belegfeld 1',
        'Beleglink',
        'EU-Land u. UStID (Bestimmung)',
        'Leistungsdatum',
        'Abw. Skontokonto',
      ]);
      // rows: one per invoice and VAT group, each against its invoice
      const expected = y.invoices.flatMap((inv) => inv.vatBreakdown.map((g) => ({ inv, g })));
      expect(b.rows).toHaveLength(expected.length);
      const xml = new TextDecoder().decode(y.zip.files['document.xml']);
      expected.forEach(({ inv, g }, i) => {
        const r = b.rows[i]!;
        expect(r).toHaveLength(125);
        expect(cents(r[0]!)).toBe(Math.round((Number(g.net) + Number(g.vat)) * 100));
        expect(r[1]).toBe(inv.typeCode === '381' ? 'H' : 'S');
        expect(r[2]).toBe('EUR');
        expect(r[6]).toBe(String(inv.customerNumber)); // debtor = customer number at length 4
        expect(r[7]).toBe({ '19': '8400', '7': '8300', '0': '8125' }[g.rate]);
        expect(r[8]).toBe(''); // no BU key on automatic accounts
        expect(r[9]).toBe(`${inv.invoiceDate.slice(8, 10)}${inv.invoiceDate.slice(5, 7)}`);
        expect(r[10]).toBe(inv.number);
        expect(r[13]).toContain(inv.number);
        // a credit note names its invoice in full: Belegfeld 2 (it fits 12 characters) and Beleginfo - Art/Inhalt 1
        expect([r[11], r[20], r[21]]).toEqual(
          inv.typeCode === '381' ? [inv.precedingInvoiceNumber, 'Rechnung', inv.precedingInvoiceNumber] : ['', '', ''],
        );
        expect(r[39]).toBe(g.category === 'K' ? 'EL094014201' : '');
        expect(r[114]).toBe(`${inv.invoiceDate.slice(8, 10)}${inv.invoiceDate.slice(5, 7)}${inv.invoiceDate.slice(0, 4)}`);
        const link = /^BEDI "([0-9a-f-]{36})"$/.exec(r[19]!);
        expect(link).not.toBeNull();
        expect(xml).toContain(`guid="${link![1]}"`);
      });
      // every PDF is the stored document
      for (const inv of y.invoices)
        expect(Buffer.from(y.zip.files[`${inv.number}_${inv.invoiceId}.pdf`]!).equals(pdfBytes(inv.invoiceId))).toBe(true);
      expect(xml).toContain('xmlns="http://xml.datev.de/bedi/tps/document/v05.0"');
      // master data: one row per customer of this year
      const d = readExtf(y.zip.files[`EXTF_Debitoren_${y.from}_${y.to}.csv`]!);
      expect([d.header[2], d.header[3], d.header[4]]).toEqual(['16', 'Debitoren/Kreditoren', '5']);
      expect(d.rows.map((r) => r[0])).toEqual([...new Set(y.invoices.map((i) => String(i.customerNumber)))].sort());
      for (const r of d.rows) expect(r).toHaveLength(d.headings.length);
    }
    // Windows-1252 on the wire: ü is one byte 0xFC, never UTF-8's C3 BC
    const raw = Buffer.from(years[0]!.zip.files['EXTF_Debitoren_20251001_20251231.csv']!);
    expect(raw.includes(Buffer.from([0xfc]))).toBe(true);
    expect(raw.includes(Buffer.from([0xc3, 0xbc]))).toBe(false);
    // The Greek name has no Windows-1252 form: question marks, as DATEV expects
    expect(new TextDecoder('windows-1252').decode(raw)).toContain('"???????? ????????"');
  });

  it('does not split a period across a fiscal-year boundary when all its documents fall into one year (is_split false)', async () => {
    // 2026-04-01 to 2027-01-31 crosses 2027-01-01; its only document is RE-2026-0003 of 2026-04-01
    const job = await runJob({ start_date: '2026-04-01', end_date: '2027-01-31' });
    expect(job).toMatchObject({ status: 'finished', result: { is_split: false, split_reason: null, total_invoice_count: 1 } });
    expect(job.result.download_ids).toHaveLength(1);
    const zip = await fetchZip(job.result.download_ids[0]);
    // one file set for the fiscal year the documents fall in, dated within it
    expect(zip.name).toBe('DATEV_EXTF_29098_55003_20260401_20261231.zip');
    const b = readExtf(zip.files['EXTF_Buchungsstapel_20260401_20261231.csv']!);
    expect([b.header[12], b.header[14], b.header[15]]).toEqual(['20260101', '20260401', '20261231']);
    expect(b.rows.map((r) => r[10])).toEqual(['RE-2026-0003']);
  });

  it('exports only what no earlier export contained with only_new; two concurrent only_new exports never share an invoice', async () => {
    const none = await runJob({ start_date: '2025-10-01', end_date: '2026-03-31', only_new: true });
    expect(none.result.error.error_code).toBe('no_invoices_found');
    const fresh = [6, 7, 8, 9].map((id) =>
      finalized(id, {
        number: `RE-2026-01${id}`,
        date: `2026-03-0${id - 5}`,
        customerNumber: 10004,
        buyer: buyerCo,
        groups: [{ category: 'S', rate: '19', treatment: 'standard', net: '10.00', vat: '1.90' }],
      }),
    );
    for (const inv of fresh) {
      await store.put(pdfKey(inv.invoiceId), pdfBytes(inv.invoiceId), 'application/pdf');
      await peer.publishEvent('invoice.finalized.v1', company, inv as never, { id: `fin-${inv.invoiceId}` });
    }
    await projected(9);
    const [a, b] = await Promise.all([
      runJob({ start_date: '2026-03-01', end_date: '2026-03-31', only_new: true }),
      runJob({ start_date: '2026-03-01', end_date: '2026-03-31', only_new: true }),
    ]);
    expect(a.result.total_invoice_count + b.result.total_invoice_count).toBe(4);
    const numbersOf = async (job: Json) => {
      if (!job.result.download_ids.length) return [];
      const zip = await fetchZip(job.result.download_ids[0]);
      return readExtf(zip.files['EXTF_Buchungsstapel_20260301_20260331.csv']!).rows.map((r) => r[10]);
    };
    const all = [...(await numbersOf(a)), ...(await numbersOf(b))].sort();
    expect(all).toEqual(fresh.map((f) => f.number).sort()); // each exactly once
    const again = await runJob({ start_date: '2026-03-01', end_date: '2026-03-31', only_new: true });
    expect(again.result.error.error_code).toBe('no_invoices_found');
  });

  it('lists downloads newest first; links and deletes are per company; a deleted file is gone from storage', async () => {
    const list = await call('GET', '/downloads/');
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body)).toBe(true);
    expect(list.body.length).toBeGreaterThanOrEqual(3);
    const ids = list.body.map((d: Json) => d.id);
    expect(ids).toEqual([...ids].sort((x: number, y: number) => y - x));
    expect(list.body.find((d: Json) => d.id === firstIds[0])).toMatchObject({
      filename: 'DATEV_EXTF_29098_55003_20251001_20251231.zip',
      size: expect.any(Number),
      period: { start: '2025-10-01', end: '2025-12-31' },
    });
    expect((await call('GET', `/downloads/${firstIds[0]}/download`, undefined, other)).status).toBe(404);
    expect((await call('DELETE', `/downloads/${firstIds[0]}`, undefined, other)).status).toBe(404);
    expect((await call('GET', '/downloads/', undefined, other)).body).toEqual([]);
    const link = (await call('GET', `/downloads/${firstIds[0]}/download`)).body;
    expect(link).toEqual({
      url: expect.stringMatching(/^http/),
      filename: 'DATEV_EXTF_29098_55003_20251001_20251231.zip',
      expires_in: 300,
    });
    const del = await call('DELETE', `/downloads/${firstIds[0]}`);
    expect(del).toMatchObject({ status: 200, body: { message: expect.any(String) } });
    expect((await fetch(link.url)).status).toBe(404);
    expect((await call('GET', `/downloads/${firstIds[0]}/download`)).status).toBe(404);
    expect((await call('GET', '/downloads/abc/download')).status).toBe(400);
  });

  it('survives a kill of export-service mid-upload: the job is redone after the restart, with one download set', async () => {
    proxyHolder.hold();
    const started = await call('POST', '/exports/job', {
      task: 'process_acctexp_export_job',
      start_date: '2025-10-01',
      end_date: '2026-03-31',
      include_master_data: true,
      include_documents: true,
      only_new: false,
    });
    expect(started.status).toBe(201);
    const jobId = started.body.job_id;
    await waitFor(
      async () => ((await call('GET', `/exports/job/${jobId}`)).body.status === 'started' && proxyHolder.held() > 0 ? true : undefined),
      { timeoutMs: 20_000, what: 'the upload to hang' },
    );
    running[0]!.child.kill('SIGKILL');
    await new Promise((r) => running[0]!.child.once('exit', r));
    proxyHolder.release();
    await launch();
    const job = await waitFor(
      async () => {
        const r = await call('GET', `/exports/job/${jobId}`);
        return r.body.status === 'finished' || r.body.status === 'failed' ? r.body : undefined;
      },
      { timeoutMs: 30_000, what: 'the redone job' },
    );
    expect([job.status, job.error_message]).toEqual(['finished', undefined]);
    expect(job.result.download_ids).toHaveLength(2);
    const ofJob = (await call('GET', '/downloads/')).body.filter((d: Json) => d.job_id === jobId);
    expect(ofJob.map((d: Json) => d.id).sort()).toEqual([...job.result.download_ids].sort());
    const zip = await fetchZip(job.result.download_ids[1]);
    expect(readExtf(zip.files['EXTF_Buchungsstapel_20260101_20260331.csv']!).rows.length).toBeGreaterThan(0);
  }, 120_000);
});
