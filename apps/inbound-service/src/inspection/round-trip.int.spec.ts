import Decimal from 'decimal.js';
import { PDFDocument } from 'pdf-lib';
import { domesticMixedRates, fixtureScenarios, invoiceTotals, toEInvoiceXml, type EInvoiceFormat } from '@inv/einvoice';
import { defaultKitDir, defaultSefCacheDir, openConformanceKit } from './conformance-kit';
import { checkDocument } from '../usecases/check-document';
import { inspectXml } from './inspect';

/**
 * Round trip: invoices written by our own writers (libs/einvoice, from its fixtures) and read back here give the
 * same parties, lines and totals, and pass the official rules (as libs/einvoice's conformance test says they do).
 */
jest.setTimeout(600_000);

const kit = openConformanceKit(process.env.INBOUND_CONFORMANCE_DIR ?? defaultKitDir(), defaultSefCacheDir());
const FORMATS: EInvoiceFormat[] = ['xrechnung-ubl', 'xrechnung-cii', 'peppol-ubl', 'cii-en16931', 'ubl-en16931'];
const SCENARIOS = ['domestic-mixed-rates', 'line-discounts', 'reverse-charge-services', 'credit-note', 'public-sector-leitweg'];
const same = (a: string | undefined, b: string | undefined) => a !== undefined && b !== undefined && new Decimal(a).equals(new Decimal(b));

const cases = fixtureScenarios
  .filter((s) => SCENARIOS.includes(s.name))
  .flatMap((s) => FORMATS.filter((f) => s.formats.includes(f)).map((f) => [s.name, f, s] as const));

describe('our writers read back', () => {
  it.each(cases)('%s as %s', async (_name, format, scenario) => {
    const invoice = scenario.build();
    const xml = toEInvoiceXml(format, invoice);
    const { report, content } = await inspectXml(kit, Buffer.from(xml), { maxBytes: 5 * 1024 * 1024 });
    expect(report.format).toBe(format);
    expect(report.findings.filter((f) => f.severity === 'fatal' || f.severity === 'error')).toEqual([]);
    expect(report.document_type).toBe(invoice.typeCode === '381' ? 'CREDIT_NOTE' : 'INVOICE');

    expect(content.number).toBe(invoice.number);
    expect(content.seller.name).toBe(invoice.seller.name);
    expect(content.buyer.name).toBe(invoice.buyer.name);
    expect(content.seller.vat_id?.replace(/\s/g, '')).toBe(invoice.seller.vatId);
    expect(content.buyer.vat_id?.replace(/\s/g, '')).toBe(invoice.buyer.vatId);

    const totals = invoiceTotals(invoice);
    expect(content.lines.map((l) => [l.id, l.name, new Decimal(l.quantity).toString(), new Decimal(l.net_amount).toFixed(2)])).toEqual(
      invoice.lines.map((l, i) => [l.id, l.name, new Decimal(l.quantity).toString(), totals.lines[i]!.net]),
    );
    const t = content.totals;
    expect({
      lines: same(t.line_total, totals.lineNetTotal),
      without: same(t.tax_exclusive, totals.taxExclusiveTotal),
      vat: same(t.tax_total, totals.vatTotal),
      with: same(t.tax_inclusive, totals.taxInclusiveTotal),
      due: same(t.payable, totals.amountDue),
    }).toEqual({ lines: true, without: true, vat: true, with: true, due: true });
    expect(content.vat_breakdown.map((v) => [v.category, new Decimal(v.rate ?? 0).toString(), v.tax_amount])).toEqual(
      totals.vatBreakdown.map((v) => [v.category, new Decimal(v.rate).toString(), v.taxAmount]),
    );
  });
});

describe('plausible VAT rates of received invoices (INB-VAT-RATE)', () => {
  const at16 = (deliveryDate: string) => {
    const invoice = domesticMixedRates();
    invoice.period = undefined;
    invoice.deliveryDate = deliveryDate;
    invoice.lines = invoice.lines.map((l) => (l.vat.rate === '19' ? { ...l, vat: { ...l.vat, rate: '16' } } : l));
    return invoice;
  };

  it.each(['xrechnung-cii', 'peppol-ubl'] as const)(
    '%s: 16 %% delivered in 2026 is valid with a warning naming 19 %% and 7 %%; in October 2020 only the 7 %% lines are flagged',
    async (format) => {
      const late = await inspectXml(kit, Buffer.from(toEInvoiceXml(format, at16('2026-10-30'))), { maxBytes: 5 * 1024 * 1024 });
      expect(late.report.valid).toBe(true);
      expect(late.report.findings.filter((f) => f.source === 'vat-rates')).toEqual([
        {
          rule: 'INB-VAT-RATE',
          severity: 'warning',
          location: expect.stringMatching(/^vat_breakdown\[\d\]\.rate$/),
          message: expect.stringMatching(
            /^16(\.00)? % is not a VAT rate of DE on 2026-10-30; the rates in force then are DE: 19 % \(standard\), 7 % \(reduced\)/,
          ),
          source: 'vat-rates',
        },
      ]);
      const in2020 = await inspectXml(kit, Buffer.from(toEInvoiceXml(format, at16('2020-10-30'))), { maxBytes: 5 * 1024 * 1024 });
      // 7 % was not in force in the second half of 2020 (5 % was): the 7 % lines are the ones flagged then
      expect(in2020.report.findings.filter((f) => f.source === 'vat-rates').map((f) => f.message)).toEqual([
        expect.stringMatching(
          /^7(\.00)? % is not a VAT rate of DE on 2020-10-30; the rates in force then are DE: 16 % \(standard\), 5 % \(reduced\)/,
        ),
      ]);
    },
  );
});

describe('our XRechnung and ZUGFeRD XML inside a PDF read back', () => {
  it.each([
    ['xrechnung-ubl', 'xrechnung.xml', 'xrechnung-ubl'],
    ['xrechnung-cii', 'factur-x.xml', 'xrechnung-cii'],
    ['cii-en16931', 'factur-x.xml', 'factur-x'],
    ['xrechnung-ubl', 'Rechnung.xml', 'xrechnung-ubl'],
  ] as const)('%s embedded as %s: %s, valid', async (format, name, read) => {
    const invoice = fixtureScenarios.find((s) => s.name === 'public-sector-leitweg')!.build();
    const pdf = await PDFDocument.create();
    pdf.addPage();
    await pdf.attach(Buffer.from(toEInvoiceXml(format, invoice)), name, { mimeType: 'text/xml' });
    const { report, content } = await checkDocument(kit, { bytes: Buffer.from(await pdf.save()), mediaType: 'application/pdf' });
    expect(report.format).toBe(read);
    expect(report.findings.filter((f) => f.severity === 'fatal' || f.severity === 'error')).toEqual([]);
    expect(content.number).toBe(invoice.number);
  });
});
