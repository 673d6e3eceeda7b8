import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { fixtureScenarios } from './fixtures';
import { einvoiceFormats, toEInvoiceXml, type EInvoiceFormat } from './formats';
import type { EInvoice, InvoiceLine } from './model';

/**
 * Generates every (scenario, format) XML into a temp dir and runs the official conformance kit ONCE
 * per format on all files of that format (each call costs ~1 s plus a one-off SEF compile).
 */
const VALIDATE = process.env.EINVOICE_VALIDATE ?? join(__dirname, '../../../../shared/conformance/validate');
const run = promisify(execFile);

/**
 * Random invoices on top of the hand-written scenarios: 3-decimal quantities, 4-decimal prices, both
 * discount kinds and mixed categories, so rounding corner cases meet the official arithmetic rules.
 * Seeded, so a failure is reproducible.
 */
function randomInvoices(count: number): EInvoice[] {
  const vat = fc.constantFrom<InvoiceLine['vat']>(
    { category: 'S', rate: '19', treatment: 'standard' },
    { category: 'S', rate: '7', treatment: 'reduced' },
    { category: 'AE', rate: '0', treatment: 'reverse_charge' },
    { category: 'K', rate: '0', treatment: 'intra_community' },
    { category: 'G', rate: '0', treatment: 'export_outside_eu' },
    { category: 'E', rate: '0', treatment: 'exempt' },
  );
  const line = fc.record({
    q: fc.integer({ min: 1, max: 9_999_999 }),
    p: fc.integer({ min: 0, max: 99_999_999 }),
    vat,
    d: fc.option(
      fc.oneof(
        fc.integer({ min: 0, max: 10_000 }).map((v) => ({ type: 'PERCENTAGE' as const, hundredths: v })),
        fc.double({ min: 0, max: 1, noNaN: true }).map((f) => ({ type: 'FIXED_AMOUNT' as const, f })),
      ),
      { nil: undefined },
    ),
  });
  const samples = fc.sample(fc.array(line, { minLength: 1, maxLength: 15 }), { seed: 20261122, numRuns: count });
  return samples.map((lines, n) => {
    const inv = fixtureScenarios[0]!.build();
    inv.number = `RND-${n + 1}`;
    inv.deliveryDate = '2026-10-30';
    inv.buyer.vatId = 'DE987654321';
    inv.lines = lines.map((l, i): InvoiceLine => {
      const quantity = (l.q / 1000).toFixed(3);
      const unitPrice = (l.p / 10000).toFixed(4);
      let discount: InvoiceLine['discount'];
      if (l.d?.type === 'PERCENTAGE') discount = { type: 'PERCENTAGE', value: (l.d.hundredths / 100).toFixed(2) };
      if (l.d?.type === 'FIXED_AMOUNT') {
        const grossCents = Math.floor((l.q * l.p) / 100000);
        discount = { type: 'FIXED_AMOUNT', value: (Math.floor(grossCents * l.d.f) / 100).toFixed(2) };
      }
      return {
        id: String(i + 1),
        name: `Artikel ${i + 1}`,
        quantity,
        unitCode: 'C62',
        unitPrice,
        vat: l.vat,
        ...(discount ? { discount } : {}),
      };
    });
    return inv;
  });
}

describe('conformance kit', () => {
  const dir = mkdtempSync(join(tmpdir(), 'einvoice-conformance-'));
  const files = new Map<EInvoiceFormat, string[]>();
  for (const format of einvoiceFormats) files.set(format, []);
  for (const scenario of fixtureScenarios) {
    for (const format of scenario.formats) {
      const file = join(dir, `${format}__${scenario.name}.xml`);
      writeFileSync(file, toEInvoiceXml(format, scenario.build()));
      files.get(format)!.push(file);
    }
  }
  randomInvoices(6).forEach((inv, n) => {
    for (const format of einvoiceFormats) {
      const file = join(dir, `${format}__random-${n + 1}.xml`);
      writeFileSync(file, toEInvoiceXml(format, inv));
      files.get(format)!.push(file);
    }
  });
  // BG-24 supporting documents embedded in UBL (the GIF is left out: EN 16931 does not allow it)
  const withAttachments = fixtureScenarios[0]!.build();
  withAttachments.number = 'ATT-1';
  withAttachments.attachments = [
    {
      id: 'ATT-11',
      filename: 'terms.pdf',
      mimeCode: 'application/pdf',
      description: 'Terms and conditions',
      content: Buffer.from('%PDF-1.7\n%%EOF\n'),
    },
    { id: 'ATT-12', filename: 'timesheet.csv', mimeCode: 'text/csv', content: Buffer.from('day;hours\n2026-11-02;7.5\n') },
    { id: 'ATT-13', filename: 'logo.gif', mimeCode: 'image/gif', content: Buffer.from('GIF89a') },
  ];
  for (const format of ['peppol-ubl', 'xrechnung-ubl', 'ubl-en16931'] as const) {
    const file = join(dir, `${format}__attachments.xml`);
    writeFileSync(file, toEInvoiceXml(format, withAttachments));
    files.get(format)!.push(file);
  }
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(einvoiceFormats.map((f) => [f]))(
    '%s: every generated file passes validate',
    async (format) => {
      const list = files.get(format)!;
      expect(list.length).toBeGreaterThan(0);
      const started = Date.now();
      let stdout: string;
      try {
        ({ stdout } = await run(VALIDATE, ['-n', '0', format, ...list], { maxBuffer: 64 * 1024 * 1024 }));
      } catch (e) {
        const err = e as { stdout?: string; stderr?: string; code?: number };
        throw new Error(`validate ${format} exited ${err.code}:\n${err.stdout ?? ''}\n${err.stderr ?? ''}`);
      }
      const passed = stdout.split('\n').filter((l) => l.startsWith('PASS ')).length;
      expect(passed).toBe(list.length);
      // visible in the test output, for the timing figures in the report
      process.stdout.write(`validate ${format}: ${list.length} files PASS in ${Date.now() - started} ms\n`);
    },
    180_000,
  );
});
