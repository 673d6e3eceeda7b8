import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EInvoice } from '@inv/einvoice';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { renderInvoicePdf } from './index';
import { sampleInvoice, totalsFor } from './testing/fixtures';

/**
 * The GiroCode on the rendered page, read back the way a payer's phone would: the page rasterised by poppler
 * (pdftoppm, 150 dpi) and decoded by jsQR, a decoder independent of the `qrcode` package that drew it. Every
 * field is compared with the invoice, the symbol's printed width and its quiet zone are measured on the page.
 */
const TOOLS = ['pdftoppm', 'pdfinfo', 'pdftotext', 'pdffonts', 'pdfimages', 'qpdf'];
const missing = TOOLS.filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
const describeWithTools = missing.length === 0 ? describe : describe.skip;
if (missing.length > 0)
  console.warn(`SKIPPING the GiroCode checks: ${missing.join(', ')} not installed (apt-get install -y poppler-utils qpdf)`);

const DPI = 150;
const pxToMm = (px: number): number => (px / DPI) * 25.4;

jest.setTimeout(120_000); // the machine may be busy: rasterising and decoding a page take seconds then

let dir: string;
let counter = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pdf-girocode-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (cmd: string, args: string[]): string => execFileSync(cmd, args, { encoding: 'utf8' });

interface Scan {
  lines: string[];
  page: number;
  /** Printed width of the symbol in mm. */
  widthMm: number;
  /** Dark pixels in the 4-module quiet zone around the symbol (must be none). */
  quietZoneDark: number;
}

/** Renders, rasterises every page and decodes the one QR code; undefined when no page has one. */
async function scan(invoice: EInvoice, template = 1): Promise<{ file: string; code?: Scan }> {
  const file = join(dir, `girocode-${++counter}.pdf`);
  writeFileSync(file, await renderInvoicePdf(invoice, { template, totals: totalsFor(invoice) }));
  // Only the page with the caption is rasterised and scanned (decoding whole pages is the slow part).
  const captioned = run('pdftotext', [file, '-'])
    .split('\f')
    .flatMap((text, i) => (text.includes('GiroCode') ? [i + 1] : []));
  expect(captioned.length).toBeLessThanOrEqual(1);
  let found: Scan | undefined;
  for (const page of captioned.length ? captioned : [1]) {
    const out = join(dir, `girocode-${counter}-${page}`);
    execFileSync('pdftoppm', ['-r', String(DPI), '-f', String(page), '-l', String(page), '-singlefile', '-png', file, out]);
    const png = PNG.sync.read(readFileSync(`${out}.png`));
    const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height, { inversionAttempts: 'dontInvert' });
    if (!code) continue;
    const { topLeftCorner: tl, topRightCorner: tr, bottomLeftCorner: bl, bottomRightCorner: br } = code.location;
    const width = Math.max(tr.x, br.x) - Math.min(tl.x, bl.x);
    const module = width / (17 + 4 * code.version);
    // The ring between the symbol and 4 modules around it (1.5 px inside each edge for anti-aliasing).
    const inner = {
      x0: Math.min(tl.x, bl.x) - 1.5,
      x1: Math.max(tr.x, br.x) + 1.5,
      y0: Math.min(tl.y, tr.y) - 1.5,
      y1: Math.max(bl.y, br.y) + 1.5,
    };
    const q = 4 * module - 1.5;
    let dark = 0;
    for (let y = Math.floor(inner.y0 - q); y <= Math.ceil(inner.y1 + q); y++) {
      for (let x = Math.floor(inner.x0 - q); x <= Math.ceil(inner.x1 + q); x++) {
        if (x >= inner.x0 && x <= inner.x1 && y >= inner.y0 && y <= inner.y1) continue;
        const i = (y * png.width + x) * 4;
        if (png.data[i] + png.data[i + 1] + png.data[i + 2] < 3 * 200) dark++;
      }
    }
    // Character set 1 is UTF-8: decoded from the raw bytes, not from the decoder's own text guess.
    found = { lines: Buffer.from(code.binaryData).toString('utf8').split('\n'), page, widthMm: pxToMm(width), quietZoneDark: dark };
  }
  return { file, code: found };
}

describeWithTools('GiroCode (EPC QR code) on the invoice PDF', () => {
  const cases = [
    { name: 'short, German, Classic', lines: 2, lang: 'de' as const, template: 1 },
    { name: 'short, English, Modern', lines: 3, lang: 'en' as const, template: 2 },
    { name: 'long (3 pages), German, Modern', lines: 40, lang: 'de' as const, template: 2 },
    { name: 'long (2 pages), English, Classic', lines: 23, lang: 'en' as const, template: 1 },
  ];

  it.each(cases)('$name: decodes to the invoice’s transfer, at least 2.5 cm wide, quiet zone free', async ({ lines, lang, template }) => {
    const invoice = sampleInvoice(lines, { language: lang });
    const totals = totalsFor(invoice);
    const { file, code } = await scan(invoice, template);
    expect(code).toBeDefined();
    const pay = invoice.payment!;
    expect(code!.lines).toEqual([
      'BCD',
      '002',
      '1',
      'SCT',
      pay.bic,
      pay.accountName,
      pay.iban,
      `EUR${totals.amountDue}`,
      '',
      '',
      invoice.number,
      `${lang === 'de' ? 'Rechnung' : 'Invoice'} ${invoice.number}`,
    ]);
    expect(code!.widthMm).toBeGreaterThanOrEqual(25);
    expect(code!.quietZoneDark).toBe(0);

    // the code sits with the payment paragraph, the caption in the document's language
    const page = run('pdftotext', ['-f', String(code!.page), '-l', String(code!.page), '-layout', file, '-']).replace(/\u00a0/g, ' ');
    expect(page).toContain(lang === 'de' ? 'Zahlung' : 'Payment');
    expect(page).toContain(lang === 'de' ? 'GiroCode – zum Bezahlen scannen' : 'GiroCode – scan to pay');
    expect(page).toMatch(lang === 'de' ? /voller offener Betrag/ : /the full amount due/);

    // still PDF/A-3 material: syntax, embedded fonts only, drawn as vectors (no image)
    expect(run('qpdf', ['--check', file])).toContain('No syntax or stream encoding errors');
    for (const line of run('pdffonts', [file])
      .split('\n')
      .slice(2)
      .filter((l) => l.trim()))
      expect(line).toMatch(/\byes\s+yes\s+(yes|no)\s+\d+\s+\d+\s*$/);
    expect(
      run('pdfimages', ['-list', file])
        .split('\n')
        .slice(2)
        .filter((l) => l.trim()),
    ).toHaveLength(0);
  });

  it('carries the full amount due after a prepayment, without Skonto, and says so', async () => {
    const invoice = sampleInvoice(1, {
      earlyPaymentDiscount: { percent: '2', untilDate: '2026-11-30', amount: '28.26', days: 10 },
      payment: {
        meansCode: '30',
        iban: 'AT611904300234573201',
        accountName: 'Ägäis Ölmühle – Ψ Trading',
        remittanceInfo: 'RF18 5390 0754 7034',
      },
    });
    const file = join(dir, 'prepaid.pdf');
    const totals = { ...totalsFor(invoice), prepaidAmount: '413.13', amountDue: '1000.00' };
    writeFileSync(file, await renderInvoicePdf(invoice, { template: 1, totals }));
    const png = join(dir, 'prepaid');
    execFileSync('pdftoppm', ['-r', String(DPI), '-singlefile', '-png', file, png]);
    const img = PNG.sync.read(readFileSync(`${png}.png`));
    const code = jsQR(new Uint8ClampedArray(img.data), img.width, img.height);
    const lines = Buffer.from(code!.binaryData).toString('utf8').split('\n');
    expect(lines.slice(4, 11)).toEqual(['', 'Ägäis Ölmühle – Ψ Trading', 'AT611904300234573201', 'EUR1000.00', '', 'RF18539007547034', '']);
    const text = run('pdftotext', ['-layout', file, '-']).replace(/\u00a0/g, ' ');
    expect(text).toContain('Betrag: 1.000,00 €');
    expect(text).toContain('ohne Abzug von Skonto');
  });

  it.each([
    ['a credit note', sampleInvoice(2, { typeCode: '381', precedingInvoice: { number: 'RE-2026-00041' } })],
    ['no IBAN', sampleInvoice(2, { payment: { meansCode: '58' } })],
    ['payment means not a transfer', sampleInvoice(2, { payment: { meansCode: '1', iban: 'DE89370400440532013000' } })],
  ])('none for %s', async (_name, invoice) => {
    const { file, code } = await scan(invoice);
    expect(code).toBeUndefined();
    expect(run('pdftotext', [file, '-'])).not.toContain('GiroCode');
  });

  it('none when nothing is due', async () => {
    const invoice = sampleInvoice(1);
    const file = join(dir, 'paid.pdf');
    const totals = totalsFor(invoice);
    writeFileSync(
      file,
      await renderInvoicePdf(invoice, { template: 2, totals: { ...totals, prepaidAmount: totals.taxInclusiveTotal, amountDue: '0.00' } }),
    );
    expect(run('pdftotext', [file, '-'])).not.toContain('GiroCode');
  });
});
