import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sampleInvoice } from '../pdf/testing/fixtures';
import { renderInvoiceDocuments, TEST_MODE_NOTES } from './render-invoice';

const VALIDATE = join(__dirname, '../../../../../shared/conformance/validate');
const haveTools = spawnSync('sh', ['-c', 'command -v pdftotext']).status === 0;

/** A test twin's invoice (docs/test-mode.md): marked TEST in the PDF, a note in the e-invoice, still valid. */
describe('test-mode invoice documents', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'test-mode-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const snapshot = sampleInvoice(3) as unknown as Parameters<typeof renderInvoiceDocuments>[0];

  it.each(['de', 'en'] as const)(
    'puts the TEST note first into the e-invoice (BT-22, CII IncludedNote) in the invoice language (%s), still valid against EN 16931',
    async (language) => {
      const invoice = { ...snapshot, language };
      const docs = await renderInvoiceDocuments(invoice, 'ZUGFERD', 1, { testMode: true });
      const xml = docs.xml!.body.toString('utf8');
      expect(xml).not.toContain(TEST_MODE_NOTES[language === 'de' ? 'en' : 'de']);
      expect(xml.replace(/>\s+</g, '><')).toContain(
        `<ram:IncludedNote><ram:Content>${TEST_MODE_NOTES[language]}</ram:Content></ram:IncludedNote>`,
      );
      const live = await renderInvoiceDocuments(invoice, 'ZUGFERD', 1);
      expect(live.xml!.body.toString('utf8')).not.toContain(TEST_MODE_NOTES[language]);
      const file = join(dir, `test-${language}.xml`);
      writeFileSync(file, xml);
      const result = spawnSync(VALIDATE, ['-n', '0', 'cii-en16931', file], { encoding: 'utf8' });
      expect(result.stdout + result.stderr).not.toContain('FAIL');
      expect(result.status).toBe(0);
    },
    300_000,
  );

  it('writes the German note in Latin-1 where the format wants it (FatturaPA Causale)', async () => {
    const docs = await renderInvoiceDocuments({ ...snapshot, language: 'de' }, 'FACTURAPA', 1, { testMode: true });
    expect(docs.xml!.body.toString('utf8')).toContain('<Causale>TEST - im Testmodus erstellt, keine gültige Rechnung</Causale>');
  });

  (haveTools ? it : it.skip)('prints the note under the notes of the PDF in the invoice language', async () => {
    for (const language of ['de', 'en'] as const) {
      const docs = await renderInvoiceDocuments({ ...snapshot, language }, 'PDF', 1, { testMode: true });
      const file = join(dir, `notes-${language}.pdf`);
      writeFileSync(file, docs.pdf.body);
      const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
      const notes = text.slice(text.indexOf(language === 'de' ? 'Hinweise' : 'Notes'));
      expect(notes).toContain(TEST_MODE_NOTES[language]);
      expect(text).not.toContain(TEST_MODE_NOTES[language === 'de' ? 'en' : 'de']);
    }
  });

  (haveTools ? it : it.skip)('marks every page of the PDF with TEST and says it is no valid invoice', async () => {
    const docs = await renderInvoiceDocuments(sampleInvoice(40) as unknown as typeof snapshot, 'PDF', 1, { testMode: true });
    const file = join(dir, 'test.pdf');
    writeFileSync(file, docs.pdf.body);
    const pages = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' })
      .split('\f')
      .filter((p) => p.trim());
    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages)
      expect(page).toMatch(/TEST – (created in test mode, not a valid invoice|im Testmodus erstellt, keine gültige Rechnung)/);
    const live = await renderInvoiceDocuments(sampleInvoice(3) as unknown as typeof snapshot, 'PDF', 1);
    writeFileSync(join(dir, 'live.pdf'), live.pdf.body);
    expect(execFileSync('pdftotext', [join(dir, 'live.pdf'), '-'], { encoding: 'utf8' })).not.toContain('TEST');
  });

  (haveTools ? it : it.skip)('prints no GiroCode on a test invoice: scanned, it would pay the live account', async () => {
    const test = await renderInvoiceDocuments(sampleInvoice(3) as unknown as typeof snapshot, 'PDF', 1, { testMode: true });
    const live = await renderInvoiceDocuments(sampleInvoice(3) as unknown as typeof snapshot, 'PDF', 1);
    writeFileSync(join(dir, 'test-girocode.pdf'), test.pdf.body);
    writeFileSync(join(dir, 'live-girocode.pdf'), live.pdf.body);
    const text = (name: string) => execFileSync('pdftotext', [join(dir, name), '-'], { encoding: 'utf8' });
    expect(text('live-girocode.pdf')).toContain('GiroCode');
    expect(text('test-girocode.pdf')).not.toContain('GiroCode');
  });
});
