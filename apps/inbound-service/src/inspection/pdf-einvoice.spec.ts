import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument, PDFName, PDFString } from 'pdf-lib';
import { defaultKitDir } from './conformance-kit';
import { extractEmbeddedInvoice } from './pdf-einvoice';

const KIT = process.env.INBOUND_CONFORMANCE_DIR ?? defaultKitDir();
const XR_UBL = readFileSync(join(KIT, 'xrechnung/examples/01.01a-INVOICE_ubl.xml'));
const XR_CII = readFileSync(join(KIT, 'xrechnung/examples/01.01a-INVOICE_uncefact.xml'));
const MAX = 5 * 1024 * 1024;

type File = { name: string; bytes: Buffer | string; mime?: string; relationship?: 'Alternative' | 'Data' | 'Supplement' };

async function pdfWith(files: File[]): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.addPage();
  for (const f of files)
    await pdf.attach(Buffer.from(f.bytes), f.name, {
      ...(f.mime ? { mimeType: f.mime } : {}),
      ...(f.relationship ? { afRelationship: f.relationship as never } : {}),
    });
  return Buffer.from(await pdf.save());
}

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (err: { code?: string }) => err.code,
  );

describe('extractEmbeddedInvoice: the e-invoice among the files a PDF embeds, whatever its name', () => {
  it.each([
    ['xrechnung.xml (our XRechnung PDF: UBL)', 'xrechnung.xml', XR_UBL],
    ['factur-x.xml carrying an XRechnung CII', 'factur-x.xml', XR_CII],
    ['a free name', 'Rechnung 2026-17.XML', XR_UBL],
    ['no extension, typed text/xml', 'invoice', XR_UBL],
    ['no extension, no type', 'beleg.bin', XR_CII],
  ])('%s', async (_what, name, xml) => {
    const found = await extractEmbeddedInvoice(
      await pdfWith([{ name, bytes: xml, mime: name === 'invoice' ? 'text/xml' : undefined }]),
      MAX,
    );
    expect(found.name).toBe(name);
    expect(found.xml.equals(xml)).toBe(true);
    expect(found.others).toEqual([]);
  });

  it('passes over XML that is not an invoice and keeps it as an attachment', async () => {
    const pdf = await pdfWith([
      { name: 'stundenzettel.xml', bytes: '<?xml version="1.0"?><Zeiten xmlns="urn:x"><Tag/></Zeiten>', mime: 'text/xml' },
      { name: 'lieferschein.pdf', bytes: '%PDF-1.4 x', mime: 'application/pdf' },
      { name: 'RE-4711.xml', bytes: XR_UBL, mime: 'application/xml', relationship: 'Alternative' },
    ]);
    const found = await extractEmbeddedInvoice(pdf, MAX);
    expect(found.name).toBe('RE-4711.xml');
    expect(found.others.map((o) => o.name).sort()).toEqual(['lieferschein.pdf', 'stundenzettel.xml']);
  });

  it('prefers the standard name when two files are invoices', async () => {
    const pdf = await pdfWith([
      { name: 'copy.xml', bytes: XR_CII },
      { name: 'factur-x.xml', bytes: XR_UBL },
    ]);
    expect((await extractEmbeddedInvoice(pdf, MAX)).name).toBe('factur-x.xml');
  });

  it('a standard-named file that is no invoice is still taken (its reading names the fault); other XML alone is no e-invoice', async () => {
    const other = '<html xmlns="http://www.w3.org/1999/xhtml"/>';
    expect((await extractEmbeddedInvoice(await pdfWith([{ name: 'factur-x.xml', bytes: other }]), MAX)).name).toBe('factur-x.xml');
    const err = await extractEmbeddedInvoice(await pdfWith([{ name: 'data.xml', bytes: other }]), MAX).catch(
      (e: Error & { code?: string }) => e,
    );
    expect(err).toMatchObject({ code: 'PDF_WITHOUT_EINVOICE', message: expect.stringContaining('data.xml') });
    expect(await codeOf(extractEmbeddedInvoice(await pdfWith([]), MAX))).toBe('PDF_WITHOUT_EINVOICE');
  });

  it('a compression bomb under any name stops at the limit', async () => {
    const pdf = await PDFDocument.create();
    pdf.addPage();
    const ref = pdf.context.register(pdf.context.flateStream(Buffer.alloc(16 * 1024 * 1024, 0x20)));
    const spec = pdf.context.obj({ Type: 'Filespec', F: PDFString.of('rechnung.xml'), EF: { F: ref } });
    pdf.catalog.set(
      PDFName.of('Names'),
      pdf.context.obj({ EmbeddedFiles: pdf.context.obj({ Names: [PDFString.of('rechnung.xml'), spec] }) }),
    );
    expect(await codeOf(extractEmbeddedInvoice(Buffer.from(await pdf.save()), 1024 * 1024))).toBe('DOCUMENT_TOO_LARGE');
  });
});
