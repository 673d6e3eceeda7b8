import { unzipSync } from 'fflate';
import type { Bus } from '@inv/bus';
import type { Messages } from '@inv/contracts';
import { deleteBrokerObjects, identityHeaders, peerBus, testEnv, testStores, uniquePrefix, waitFor } from '@inv/testing';
import { createExportService, exportConfig } from './export-service';

/**
 * Payments (with Skonto), their reversals and received (supplier) invoices in the DATEV export: export-service in
 * this process, fed by events from a second bus (playing invoice- and inbound-service). The ZIPs are read back with
 * a small reader written here (fflate, TextDecoder, a quote-aware splitter).
 */

// Response bodies are inspected loosely in tests.
type Json = any;

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
  const lines = new TextDecoder('windows-1252').decode(bytes).split('\r\n').slice(0, -1);
  const headings = splitCsvLine(lines[1]!);
  const rows = lines.slice(2).map(splitCsvLine);
  const get = (row: string[], h: string) => row[headings.indexOf(h)];
  return { header: splitCsvLine(lines[0]!), headings, rows, get };
}

describe('export-service: payments, Skonto and supplier bookings in the DATEV export', () => {
  const prefix = uniquePrefix('exp-pay');
  const company = 'cmp_pay';
  let stores: Awaited<ReturnType<typeof testStores>>;
  let svc: Awaited<ReturnType<typeof createExportService>>;
  let peer: Bus<Messages>;
  let base: string;

  const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> => {
    const headers: Record<string, string> = { accept: 'application/json', ...(await identityHeaders(company)) };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const db = () => svc.runtime.conn;
  const count = (collection: string, filter: Record<string, unknown>) =>
    db()
      .collection(collection)
      .countDocuments({ companyId: company, ...filter });
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
    return unzipSync(new Uint8Array(await res.arrayBuffer()));
  };

  const originalKey = `${company}/inbound/5/original.xml`;
  const invoice = {
    invoiceId: 1,
    number: 'RE-2026-0001',
    typeCode: '380' as const,
    customerId: 23,
    customerNumber: 10023,
    invoiceDate: '2026-03-05',
    dueDate: '2026-03-19',
    currency: 'EUR',
    totalNet: '150.00',
    totalVat: '22.50',
    totalGross: '172.50',
    reservationId: 'r-1',
    buyer: { name: 'Müller GmbH', address: { line1: 'Hauptstraße 1', city: 'Köln', postalCode: '50667', countryCode: 'DE' } },
    vatBreakdown: [
      { category: 'S', rate: '19', treatment: 'standard', net: '100.00', vat: '19.00' },
      { category: 'S', rate: '7', treatment: 'reduced', net: '50.00', vat: '3.50' },
    ],
  };
  const payment = (paymentId: number, amount: string, date: string, extra: Record<string, unknown> = {}) => ({
    invoiceId: 1,
    customerId: 23,
    number: 'RE-2026-0001',
    paymentId,
    amount,
    date,
    source: 'manual' as const,
    openAmount: '0.00',
    paidInFull: true,
    ...extra,
  });
  const received = (inboundId: number, extra: Record<string, unknown> = {}) => ({
    inboundId,
    format: 'xrechnung-cii',
    valid: true,
    number: `LF-${inboundId}`,
    issueDate: '2026-03-07',
    typeCode: '380',
    currency: 'EUR',
    supplierId: 3,
    sellerName: 'Lieferant AG',
    sellerVatId: 'DE987654321',
    totalNet: '210.00',
    totalVat: '38.70',
    totalGross: '248.70',
    vatBreakdown: [
      { category: 'S', rate: '19', net: '200.00', vat: '38.00' },
      { category: 'S', rate: '7', net: '10.00', vat: '0.70' },
    ],
    original: { key: originalKey, filename: 'original.xml', contentType: 'application/xml', size: 12 },
    ...extra,
  });

  beforeAll(async () => {
    stores = await testStores();
    svc = await createExportService(exportConfig.parse(testEnv(prefix, stores.mongoUrl, { ...stores.s3Env, S3_BUCKET: 'exports-pay' })));
    base = (await svc.start()).url;
    peer = peerBus(prefix);
    await peer.start();
    await svc.deps.objects.put(originalKey, Buffer.from('<Invoice/>\n'), 'application/xml');
    expect((await call('PUT', '/acctexp/config', { consultant_number: 29098, client_number: 55003 })).status).toBe(200);
  }, 90_000);

  afterAll(async () => {
    await svc?.stop();
    await peer?.stop();
    await deleteBrokerObjects(prefix);
    await stores?.stop();
  }, 30_000);

  it('lists the bank, Skonto and expense accounts with the chart defaults and saves them as a batch', async () => {
    const m = (await call('GET', '/acctexp/mappings')).body;
    expect(m).toMatchObject({
      bank_account: 1200,
      discount_account_standard: 8736,
      discount_account_reduced: 8731,
      discount_account_untaxed: 8730,
      expense_account: 4900,
    });
    const bad = await call('PUT', '/acctexp/mappings', { bank_account: 12000, expense_account: 4980 });
    expect([bad.status, bad.body.errors.map((e: Json) => e.path)]).toEqual([400, ['bank_account']]);
    const saved = await call('PUT', '/acctexp/mappings', { bank_account: 1210 });
    expect(saved.body.bank_account).toBe(1210);
    expect((await call('POST', '/acctexp/mappings/reset')).body.bank_account).toBe(1200);
  });

  it('projects payments, reversals (also one ahead of its payment) and valid received invoices, idempotently', async () => {
    await peer.publishEvent('invoice.finalized.v1', company, invoice as never);
    const rec = payment(11, '169.05', '2026-03-12', { discount: '3.45' });
    await peer.publishEvent('invoice.payment-recorded.v1', company, rec, { id: 'pay-11' });
    await peer.publishEvent('invoice.payment-recorded.v1', company, rec, { id: 'pay-11' }); // redelivery
    // payment 12 is reversed before its recording arrives: it must never reach an export
    await peer.publishEvent('invoice.payment-reversed.v1', company, {
      invoiceId: 1,
      customerId: 23,
      number: 'RE-2026-0001',
      paymentId: 12,
      amount: '50.00',
      date: '2026-03-10',
      reversedAt: '2026-03-11T09:00:00.000Z',
      openAmount: '172.50',
    });
    await waitFor(async () => ((await count('export_payments', { paymentId: 12 })) === 1 ? true : undefined), { what: 'reversal' });
    await peer.publishEvent('invoice.payment-recorded.v1', company, payment(12, '50.00', '2026-03-10', { paidInFull: false }));
    await peer.publishEvent('inbound.received.v1', company, received(5));
    await peer.publishEvent('inbound.received.v1', company, received(6, { valid: false }));
    await peer.publishEvent('inbound.received.v1', company, received(7));
    await peer.publishEvent('inbound.deleted.v1', company, { inboundId: 7 });
    // a deletion that overtakes its received event keeps the document out
    await peer.publishEvent('inbound.deleted.v1', company, { inboundId: 8 });
    await waitFor(async () => ((await count('export_supplier_invoices', { inboundId: 8 })) === 1 ? true : undefined), { what: 'deletion' });
    await peer.publishEvent('inbound.received.v1', company, received(8));
    await waitFor(
      async () =>
        (await count('export_invoices', { finalized: true })) === 1 &&
        (await count('export_payments', {})) === 2 &&
        (await count('export_supplier_invoices', { deleted: true })) === 2 &&
        (await count('export_supplier_invoices', { deleted: false })) === 1 &&
        (await db().collection('processed_events').countDocuments()) >= 9
          ? true
          : undefined,
      { timeoutMs: 15_000, what: 'the read models' },
    );
    expect(await db().collection('export_payments').findOne({ companyId: company, paymentId: 12 })).toMatchObject({ reversed: true });
    expect(await count('export_supplier_invoices', { inboundId: 6 })).toBe(0); // invalid: not booked
  }, 30_000);

  let firstJob = '';
  it('exports the invoice, the payment with its Skonto and the supplier invoice, and announces the exported payments', async () => {
    const job = await runJob({ start_date: '2026-01-01', end_date: '2026-12-31', include_master_data: true, include_documents: true });
    firstJob = job.job_id;
    expect(job.status).toBe('finished');
    expect(job.result).toMatchObject({ total_invoice_count: 1, total_payment_count: 1, total_supplier_invoice_count: 1, is_split: false });
    const files = await fetchZip(job.result.download_ids[0]);
    const { rows, get } = readExtf(files['EXTF_Buchungsstapel_20260101_20261231.csv']!);
    const view = rows.map((r) =>
      [
        'Umsatz (ohne Soll/Haben-Kz)',
        'Soll/Haben-Kennzeichen',
        'Konto',
        'Gegenkonto (ohne BU-Schlüssel)',
        'BU-Schlüssel',
        'Belegdatum',
        'Belegfeld 1',
      ].map((h) => get(r, h)),
    );
    expect(view).toEqual([
      ['119,00', 'S', '10023', '8400', '', '0503', 'RE-2026-0001'],
      ['53,50', 'S', '10023', '8300', '', '0503', 'RE-2026-0001'],
      ['169,05', 'S', '1200', '10023', '', '1203', 'RE-2026-0001'],
      ['2,38', 'S', '8736', '10023', '', '1203', 'RE-2026-0001'],
      ['1,07', 'S', '8731', '10023', '', '1203', 'RE-2026-0001'],
      ['238,00', 'H', '70003', '4900', '9', '0703', 'LF-5'],
      ['10,70', 'H', '70003', '4900', '8', '0703', 'LF-5'],
    ]);
    // the supplier rows link their original, which is in the ZIP and in document.xml
    expect(get(rows[5]!, 'Beleglink')).toMatch(/^BEDI "[0-9a-f-]{36}"$/);
    expect(new TextDecoder().decode(files['ER_LF-5_5.xml'])).toBe('<Invoice/>\n');
    expect(new TextDecoder().decode(files['document.xml'])).toContain('ER_LF-5_5.xml');
    // Kreditoren beside Debitoren
    const master = readExtf(files['EXTF_Debitoren_20260101_20261231.csv']!);
    expect(master.rows.map((r) => [master.get(r, 'Konto'), master.get(r, 'Name (Adressatentyp Unternehmen)')])).toEqual([
      ['10023', 'Müller GmbH'],
      ['70003', 'Lieferant AG'],
    ]);
    const announced = await db().collection('outbox').findOne({ type: 'export.payments-exported.v1', 'data.jobId': job.job_id });
    expect(announced).toMatchObject({ _id: `payments-exported:${job.job_id}`, data: { paymentIds: [11], jobId: job.job_id } });
  }, 30_000);

  it('only_new: a later payment in the next fiscal year gets a file of its own; what was exported is not repeated', async () => {
    await peer.publishEvent('invoice.payment-recorded.v1', company, payment(13, '0.01', '2027-01-05'));
    // payment 14 is recorded and reversed before any export: it disappears
    await peer.publishEvent('invoice.payment-recorded.v1', company, payment(14, '5.00', '2027-01-06'));
    await waitFor(async () => ((await count('export_payments', { paymentId: 14 })) === 1 ? true : undefined), { what: 'payment 14' });
    await peer.publishEvent('invoice.payment-reversed.v1', company, {
      invoiceId: 1,
      customerId: 23,
      number: 'RE-2026-0001',
      paymentId: 14,
      amount: '5.00',
      date: '2027-01-06',
      reversedAt: '2027-01-07T09:00:00.000Z',
      openAmount: '5.00',
    });
    await waitFor(async () => ((await count('export_payments', { paymentId: 14, reversed: true })) === 1 ? true : undefined), {
      what: 'reversal of payment 14',
    });
    await waitFor(async () => ((await count('export_payments', { paymentId: 13 })) === 1 ? true : undefined), { what: 'payment 13' });
    const job = await runJob({ start_date: '2026-01-01', end_date: '2027-12-31', only_new: true });
    expect(job.result).toMatchObject({ total_invoice_count: 0, total_payment_count: 1, is_split: false });
    expect(job.result.download_ids).toHaveLength(1);
    const files = await fetchZip(job.result.download_ids[0]);
    const { rows, get, header } = readExtf(files['EXTF_Buchungsstapel_20270101_20271231.csv']!);
    expect(header[12]).toBe('20270101'); // WJ-Beginn of its fiscal year
    expect(rows.map((r) => [get(r, 'Konto'), get(r, 'Gegenkonto (ohne BU-Schlüssel)'), get(r, 'Belegdatum')])).toEqual([
      ['1200', '10023', '0501'],
    ]);
    expect(await db().collection('export_payments').findOne({ companyId: company, paymentId: 11 })).toMatchObject({ exportedBy: firstJob });
    const again = await runJob({ start_date: '2026-01-01', end_date: '2027-12-31', only_new: true });
    expect(again.result.error.error_code).toBe('no_invoices_found');
  }, 30_000);
  describe('received invoices: duplicates, other currencies, the collective creditor (2028)', () => {
    const dkk = {
      currency: 'DKK',
      taxCurrency: 'EUR',
      // BT-110 186.50 DKK, BT-111 25.00 EUR: the supplier converted at 7.46 DKK per EUR
      totalNet: '746.00',
      totalVat: '186.50',
      totalVatTaxCurrency: '25.00',
      totalGross: '932.50',
      vatBreakdown: [{ category: 'S', rate: '25', net: '746.00', vat: '186.50' }],
    };
    const foreign = (currency: string) => ({
      currency,
      totalNet: '100.00',
      totalVat: '0.00',
      totalGross: '100.00',
      vatBreakdown: [{ category: 'AE', rate: '0', net: '100.00', vat: '0.00' }],
    });
    const COLS = [
      'Umsatz (ohne Soll/Haben-Kz)',
      'Soll/Haben-Kennzeichen',
      'WKZ Umsatz',
      'Kurs',
      'Basis-Umsatz',
      'WKZ Basis-Umsatz',
      'Konto',
      'Belegfeld 1',
    ];

    it('projects them; a document flagged duplicate_of never enters the read model', async () => {
      const on = (id: number, extra: Record<string, unknown>) =>
        peer.publishEvent('inbound.received.v1', company, received(id, { issueDate: '2028-02-01', ...extra }) as never);
      await on(20, { number: 'LF-20' });
      await on(21, { number: 'LF-20', duplicateOf: 20 }); // the same invoice received again
      await on(22, { ...dkk, supplierId: undefined, sellerName: 'Dansk ApS', sellerVatId: 'DK12345678' });
      await on(23, { ...foreign('NOK'), supplierId: undefined, sellerName: 'Norsk AS', sellerVatId: undefined });
      await on(24, { ...foreign('GBP'), supplierId: 4, sellerName: 'British Ltd', sellerVatId: undefined });
      await waitFor(async () => ((await count('export_supplier_invoices', { issueDate: '2028-02-01' })) === 4 ? true : undefined), {
        what: 'the 2028 received invoices',
      });
      expect(await count('export_supplier_invoices', { inboundId: 21 })).toBe(0);
    }, 30_000);

    it('without a rate for NOK and GBP the export fails and says so; nothing is written as EUR', async () => {
      const job = await runJob({ start_date: '2028-01-01', end_date: '2028-12-31' });
      expect(job.status).toBe('failed');
      expect(job.error_message).toMatch(/LF-23 \(inbound 23\) is in NOK and states no VAT amount in EUR.*exchange_rates/);
      expect(await count('export_supplier_invoices', { exportedBy: job.job_id })).toBe(0); // claims released
      const bad = await call('POST', '/exports/job', {
        task: 'process_acctexp_export_job',
        start_date: '2028-01-01',
        end_date: '2028-12-31',
        exchange_rates: { NOK: '0', gbp: '0.84', EUR: '1' },
      });
      expect([bad.status, bad.body.errors.map((e: Json) => e.path).sort()]).toEqual([
        400,
        ['exchange_rates.EUR', 'exchange_rates.NOK', 'exchange_rates.gbp'],
      ]);
    }, 30_000);

    it("books them in their currency with Kurs and Basis-Umsatz: the invoice's own EUR VAT, else the rate given", async () => {
      const job = await runJob({
        start_date: '2028-01-01',
        end_date: '2028-12-31',
        include_master_data: true,
        exchange_rates: { NOK: '11.7250', GBP: 0.8412, DKK: '7.5' },
      });
      expect(job.status).toBe('finished');
      expect(job.exchange_rates).toEqual({ NOK: '11.7250', GBP: '0.8412', DKK: '7.5' });
      expect(job.result).toMatchObject({ total_supplier_invoice_count: 4 });
      const files = await fetchZip(job.result.download_ids[0]);
      const { rows, get } = readExtf(files['EXTF_Buchungsstapel_20280101_20281231.csv']!);
      expect(rows.map((r) => COLS.map((h) => get(r, h)))).toEqual([
        ['238,00', 'H', 'EUR', '', '', '', '70003', 'LF-20'],
        ['10,70', 'H', 'EUR', '', '', '', '70003', 'LF-20'],
        // DKK: the invoice's own figures win over the rate given (186.50 / 25.00 = 7.46)
        ['932,50', 'H', 'DKK', '7,46', '125,00', 'EUR', '70000', 'LF-22'],
        ['100,00', 'H', 'NOK', '11,725', '8,53', 'EUR', '70000', 'LF-23'],
        ['100,00', 'H', 'GBP', '0,8412', '118,88', 'EUR', '70004', 'LF-24'],
      ]);
      // the collective creditor is named as such, not after the first (or last) supplier booked on it
      const master = readExtf(files['EXTF_Debitoren_20280101_20281231.csv']!);
      const creditors = master.rows.map((r) => [
        master.get(r, 'Konto'),
        master.get(r, 'Name (Adressatentyp Unternehmen)'),
        master.get(r, 'Kurzbezeichnung'),
        master.get(r, 'EU-USt-IdNr.'),
      ]);
      expect(creditors).toEqual([
        ['70000', 'Sammelkreditor', 'Sammelkreditor', ''],
        ['70003', 'Lieferant AG', 'Lieferant AG', '987654321'],
        ['70004', 'British Ltd', 'British Ltd', ''],
      ]);
    }, 30_000);
  });
});
