import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toCii } from '@inv/einvoice';
import { renderInvoicePdf, renderStatementPdf } from './index';
import { reverseChargeInvoice, sampleInvoice, sampleStatement, totalsFor } from './testing/fixtures';

/** Debian tools the PDF checks use (poppler-utils, qpdf); `.ci/run` installs them. */
const TOOLS = ['pdfdetach', 'pdffonts', 'pdftotext', 'pdfinfo', 'pdfimages', 'qpdf'];
const missing = TOOLS.filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
const describeWithTools = missing.length === 0 ? describe : describe.skip;
if (missing.length > 0) {
  console.warn(`SKIPPING PDF tool checks: ${missing.join(', ')} not installed (apt-get install -y poppler-utils qpdf)`);
}

const CONFORMANCE = join(__dirname, '../../../../../shared/conformance');
const SAMPLE_CII = readFileSync(join(CONFORMANCE, 'en16931/cii/examples/CII_example1.xml'), 'utf8');
const VALIDATE = join(CONFORMANCE, 'validate');
const LOGO = readFileSync(join(__dirname, '../../assets/logo-placeholder.png'));
const NBSP = /\u00a0/g;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pdf-spec-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let counter = 0;
function save(pdf: Buffer): string {
  const file = join(dir, `doc-${++counter}.pdf`);
  writeFileSync(file, pdf);
  return file;
}

const run = (cmd: string, args: string[]): string => execFileSync(cmd, args, { encoding: 'utf8' });

function pageCount(file: string): number {
  return Number(/Pages:\s+(\d+)/.exec(run('pdfinfo', [file]))![1]);
}

/** pdffonts rows: every font must be embedded (emb = yes). */
function fonts(file: string): { name: string; emb: string }[] {
  return run('pdffonts', [file])
    .split('\n')
    .slice(2)
    .filter((l) => l.trim())
    .map((l) => {
      const cols = l.trim().split(/\s+/);
      return { name: cols[0], emb: cols[cols.length - 5] };
    });
}

function text(file: string): string {
  return run('pdftotext', ['-layout', file, '-']).replace(NBSP, ' ');
}

describe('renderInvoicePdf', () => {
  it('writes a PDF/A-3b header, sRGB output intent and pdfaid XMP', async () => {
    const invoice = sampleInvoice(1);
    const pdf = await renderInvoicePdf(invoice, { template: 1, totals: totalsFor(invoice) });
    const raw = pdf.toString('latin1');
    expect(raw.startsWith('%PDF-1.7')).toBe(true);
    expect(raw).toContain('<pdfaid:part>3</pdfaid:part>');
    expect(raw).toContain('<pdfaid:conformance>B</pdfaid:conformance>');
    expect(raw).toContain('/OutputIntents');
    expect(raw).toContain('sRGB IEC61966-2.1');
    expect(raw).not.toContain('/Helvetica');
    expect(raw).not.toContain('fx:DocumentType'); // no Factur-X metadata without an attachment
  });

  it('adds the Factur-X XMP extension schema with the attachment', async () => {
    const invoice = sampleInvoice(3);
    const pdf = await renderInvoicePdf(invoice, {
      template: 2,
      totals: totalsFor(invoice),
      attachment: { filename: 'factur-x.xml', xml: SAMPLE_CII, facturX: true },
    });
    const raw = pdf.toString('latin1');
    expect(raw).toContain('<fx:DocumentType>INVOICE</fx:DocumentType>');
    expect(raw).toContain('<fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>');
    expect(raw).toContain('<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>');
    expect(raw).toContain('Factur-X PDFA Extension Schema');
    expect(raw).toContain('/AFRelationship /Alternative');
    expect(raw).toMatch(/\/AF \[/);
    expect(raw).toContain('/Subtype /text#2Fxml');
  });

  it('rejects bad input before drawing', async () => {
    const invoice = sampleInvoice(2);
    const totals = totalsFor(invoice);
    await expect(renderInvoicePdf(invoice, { template: 9, totals })).rejects.toThrow(/unknown template/);
    await expect(renderInvoicePdf({ ...invoice, lines: [] }, { template: 1, totals })).rejects.toThrow(/lines/);
    await expect(renderInvoicePdf(invoice, { template: 1, totals: { ...totals, lines: totals.lines.slice(1) } })).rejects.toThrow(
      /totals.lines/,
    );
    await expect(renderInvoicePdf(invoice, { template: 1, totals: undefined as never })).rejects.toThrow(/totals/);
    await expect(renderInvoicePdf({ ...invoice, issueDate: '20.11.2026' }, { template: 1, totals })).rejects.toThrow(/YYYY-MM-DD/);
    await expect(renderInvoicePdf(invoice, { template: 1, totals: { ...totals, amountDue: '12,00' } })).rejects.toThrow(/decimal/);
    await expect(renderInvoicePdf(invoice, { template: 1, totals, logo: Buffer.from('not an image') })).rejects.toThrow(/logo/);
    await expect(renderInvoicePdf(invoice, { template: 1, totals, attachment: { filename: 'factur-x.xml', xml: '' } })).rejects.toThrow(
      /attachment.xml/,
    );
  });

  it('renders concurrently with the shared parsed fonts', async () => {
    const invoices = [sampleInvoice(5), reverseChargeInvoice(5), sampleInvoice(8, { language: 'en' })];
    const pdfs = await Promise.all(invoices.map((inv, i) => renderInvoicePdf(inv, { template: 1 + (i % 2), totals: totalsFor(inv) })));
    for (const pdf of pdfs) expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  });
});

describeWithTools('renderInvoicePdf checked with poppler and qpdf', () => {
  const cases = [
    { name: '1 line, German, Classic', lines: 1, lang: 'de' as const, template: 1, draft: false },
    { name: '1 line, English, Modern, draft', lines: 1, lang: 'en' as const, template: 2, draft: true },
    { name: '200 lines, German, Modern, draft', lines: 200, lang: 'de' as const, template: 2, draft: true },
    { name: '200 lines, English, Classic', lines: 200, lang: 'en' as const, template: 1, draft: false },
  ];

  it.each(cases)('$name', async ({ lines, lang, template, draft }) => {
    const invoice = sampleInvoice(lines, { language: lang });
    const totals = totalsFor(invoice);
    const pdf = await renderInvoicePdf(invoice, {
      template,
      totals,
      draft,
      logo: template === 2 ? LOGO : undefined,
      attachment: { filename: 'factur-x.xml', xml: SAMPLE_CII, facturX: true },
    });
    const file = save(pdf);

    expect(run('qpdf', ['--check', file])).toContain('No syntax or stream encoding errors');

    const embedded = fonts(file);
    expect(embedded.length).toBeGreaterThan(0);
    for (const font of embedded) expect(font).toEqual({ name: font.name, emb: 'yes' });

    expect(run('pdfdetach', ['-list', file])).toMatch(/1: factur-x\.xml/);
    const out = join(dir, `extracted-${counter}.xml`);
    run('pdfdetach', ['-save', '1', '-o', out, file]);
    expect(readFileSync(out, 'utf8')).toBe(SAMPLE_CII);

    const content = text(file);
    expect(content).toContain(invoice.number);
    const total = lang === 'de' ? '7.254,55 €' : '€7,254.55';
    if (lines === 1) {
      expect(content).toContain(lang === 'de' ? '1.413,13 €' : '€1,413.13'); // 12.5 h x 95.00 + 19 %
    } else {
      expect(content).toContain(lang === 'de' ? '145.090,96 €' : '€145,090.96');
      expect(content).not.toContain(total);
    }
    expect(content).toContain(lang === 'de' ? 'Rechnung' : 'Invoice');
    expect(content).toContain('IBAN DE89 3704 0044 0532 0130 00');
    expect(content).toContain('HRB 123456');
    // The watermark is rotated; -raw keeps its letters together (content-stream order).
    const raw = run('pdftotext', ['-raw', file, '-']).replace(/\s+/g, '');
    if (draft) expect(raw).toContain(lang === 'de' ? 'ENTWURF' : 'DRAFT');
    else expect(raw).not.toMatch(/ENTWURF|DRAFT/);

    // The logo slot: one image when a logo is given.
    const images = run('pdfimages', ['-list', file])
      .split('\n')
      .slice(2)
      .filter((l) => l.trim());
    expect(images).toHaveLength(template === 2 ? 1 : 0);

    const pages = pageCount(file);
    if (lines === 200) {
      expect(pages).toBeGreaterThan(3);
      // The positions table repeats its header on every page that continues it.
      const headers = content.split('\f').filter((page) => page.includes(lang === 'de' ? 'Einzelpreis' : 'Unit price'));
      expect(headers.length).toBeGreaterThanOrEqual(pages - 1);
      expect(content).toContain(lang === 'de' ? `Seite ${pages} von ${pages}` : `Page ${pages} of ${pages}`);
    } else {
      expect(pages).toBe(1);
    }
  });

  it('states reverse charge and embeds an XRechnung file', async () => {
    const invoice = reverseChargeInvoice(2);
    const pdf = await renderInvoicePdf(invoice, {
      template: 1,
      totals: totalsFor(invoice),
      attachment: { filename: 'xrechnung.xml', xml: SAMPLE_CII, facturX: true },
    });
    const file = save(pdf);
    expect(run('pdfdetach', ['-list', file])).toMatch(/1: xrechnung\.xml/);
    expect(pdf.toString('latin1')).toContain('<fx:ConformanceLevel>XRECHNUNG</fx:ConformanceLevel>');
    const content = text(file);
    expect(content).toContain('Reverse charge: VAT to be accounted for by the recipient');
    expect(content).toContain('FR61954506077');
    expect(content).toContain('FRANCE');
  });

  (existsSync(VALIDATE) ? it : it.skip)(
    'embeds our CII so that the extracted file passes the EN 16931 rules (shared/conformance/validate)',
    async () => {
      const invoices = [sampleInvoice(10), reverseChargeInvoice(3)];
      const files: string[] = [];
      for (const invoice of invoices) {
        const xml = toCii(invoice);
        const pdf = await renderInvoicePdf(invoice, {
          template: 1,
          totals: totalsFor(invoice),
          attachment: { filename: 'factur-x.xml', xml, facturX: true },
        });
        const out = join(dir, `cii-${invoice.number}.xml`);
        run('pdfdetach', ['-save', '1', '-o', out, save(pdf)]);
        expect(readFileSync(out, 'utf8')).toBe(xml);
        files.push(out);
      }
      const result = spawnSync(VALIDATE, ['cii-en16931', ...files], { encoding: 'utf8' });
      expect(result.stdout + result.stderr).not.toContain('FAIL');
      expect(result.status).toBe(0);
    },
    120_000,
  );

  it('renders a credit note with the preceding invoice', async () => {
    const invoice = sampleInvoice(2, {
      typeCode: '381',
      number: 'RK-2026-7',
      precedingInvoice: { number: 'RE-2026-00042', issueDate: '2026-11-20' },
    });
    invoice.buyer = { ...invoice.buyer, name: '株式会社 Tokyo Trading' }; // no CJK glyphs in DejaVu
    const file = save(await renderInvoicePdf(invoice, { template: 2, totals: totalsFor(invoice) }));
    const content = text(file);
    expect(content).toContain('Rechnungskorrektur RK-2026-7');
    expect(content).not.toContain('Gutschrift');
    expect(content).toContain('Korrektur zur Rechnung RE-2026-00042 vom 20.11.2026');
    expect(content).toContain('???? Tokyo Trading');
    expect(run('pdfdetach', ['-list', file])).toMatch(/0 embedded files/);
  });
});

describeWithTools('the words on the documents', () => {
  it.each([
    ['de', 'Regelsatz', 'Ermäßigter Satz'],
    ['en', 'Standard rate', 'Reduced rate'],
  ] as const)(
    'calls the 7 %% row the reduced rate even when its position was left at the standard treatment (%s)',
    async (lang, standard, reduced) => {
      const invoice = sampleInvoice(3, { language: lang });
      invoice.lines = invoice.lines.map((line, i) => ({
        ...line,
        vat: i === 1 ? { category: 'S', rate: '7', treatment: 'standard' } : line.vat,
      }));
      const content = text(save(await renderInvoicePdf(invoice, { template: 1, totals: totalsFor(invoice) })));
      expect(content).toMatch(new RegExp(`${standard}\\s+19 ?%`));
      expect(content).toMatch(new RegExp(`${reduced}\\s+7 ?%`));
      expect(content).not.toMatch(new RegExp(`${standard}\\s+7 ?%`));
    },
  );

  it('names a 16 % row of 2026 no rate in force, and the same row of 2020 the standard rate', async () => {
    const at = (date: string) => {
      const invoice = sampleInvoice(1, { issueDate: date, period: undefined, deliveryDate: date });
      invoice.lines = invoice.lines.map((line) => ({ ...line, vat: { category: 'S', rate: '16', treatment: 'standard' } }));
      return renderInvoicePdf(invoice, { template: 1, totals: totalsFor(invoice) }).then((pdf) => text(save(pdf)));
    };
    expect(await at('2020-10-01')).toMatch(/Regelsatz\s+16 %/);
    const now = await at('2026-11-20');
    expect(now).toMatch(/Umsatzsteuer\s+16 %/);
    expect(now).not.toContain('Regelsatz');
  });

  it.each([
    ['de', 'Rechnungskorrektur', 'Gutschrift'],
    ['en', 'Credit note', 'Gutschrift'],
  ] as const)('calls a credit note in the statement what its PDF calls it (%s)', async (lang, word, wrong) => {
    const sample = sampleStatement(2, lang);
    const statement = {
      ...sample,
      entries: [
        ...sample.entries,
        { date: '2026-04-08', documentNumber: 'RK-2026-00001', type: 'credit_note' as const, credit: '10.00', balance: '1190.00' },
      ],
      closingBalance: '1190.00',
    };
    const content = text(save(await renderStatementPdf(statement)));
    expect(content).toMatch(new RegExp(`RK-2026-00001\\s+${word}`));
    expect(content).not.toContain(wrong);
  });
});

describeWithTools('renderStatementPdf', () => {
  it.each(['de', 'en'] as const)('renders a multi-page %s statement', async (lang) => {
    const statement = sampleStatement(80, lang);
    const file = save(await renderStatementPdf(statement, { template: lang === 'de' ? 1 : 2 }));
    expect(run('qpdf', ['--check', file])).toContain('No syntax or stream encoding errors');
    for (const font of fonts(file)) expect(font.emb).toBe('yes');
    expect(pageCount(file)).toBeGreaterThan(1);
    const content = text(file);
    expect(content).toContain(lang === 'de' ? 'Kontoauszug' : 'Account statement');
    expect(content).toContain('RE-2026-100');
    expect(content).toContain(lang === 'de' ? 'Offener Betrag zu unseren Gunsten: 1.200,00 €' : 'Balance due to us: €1,200.00');
  });

  it.each([
    ['de', 'Mahngebühr', 'Verzugszinsen'],
    ['en', 'Reminder fee', 'Interest'],
  ] as const)('labels reminder fees and default interest (%s)', async (lang, fee, interest) => {
    const sample = sampleStatement(2, lang);
    const reminder = { date: '2026-04-08', documentNumber: 'RE-2026-100' };
    const statement = {
      ...sample,
      entries: [
        ...sample.entries,
        { ...reminder, type: 'reminder_fee' as const, debit: '5.00', balance: '1205.00' },
        { ...reminder, type: 'reminder_fee' as const, debit: '40.00', balance: '1245.00' },
        { ...reminder, type: 'interest' as const, debit: '0.80', balance: '1245.80' },
      ],
      closingBalance: '1245.80',
    };
    const file = save(await renderStatementPdf(statement));
    const content = text(file);
    expect(content).toContain(fee);
    expect(content).toContain(interest);
  });

  it('rejects malformed statements', async () => {
    const statement = sampleStatement(2);
    await expect(renderStatementPdf({ ...statement, openingBalance: 'abc' })).rejects.toThrow(/decimal/);
    await expect(renderStatementPdf({ ...statement, from: '2026/01/01' })).rejects.toThrow(/YYYY-MM-DD/);
    await expect(renderStatementPdf({ ...statement, entries: [{ ...statement.entries[0], type: 'gift' as never }] })).rejects.toThrow(
      /type/,
    );
    await expect(renderStatementPdf(statement, { template: 7 })).rejects.toThrow(/unknown template/);
    await expect(renderStatementPdf({ ...statement, entries: [{ ...statement.entries[0], debit: '1.000,00' }] })).rejects.toThrow(
      /entries\[0\]\.debit/,
    );
  });
});
