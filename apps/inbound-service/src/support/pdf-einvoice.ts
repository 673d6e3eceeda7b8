import { inflateSync } from 'node:zlib';
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFRawStream, PDFString, type PDFObject } from 'pdf-lib';
import { AppError } from '@inv/service-kit';

/** The names ZUGFeRD 1/2, Factur-X and XRechnung-in-PDF give the embedded invoice, preferred in this order. */
const INVOICE_NAMES = ['factur-x.xml', 'zugferd-invoice.xml', 'xrechnung.xml', 'zugferd_invoice.xml'];
/** Name tree nodes visited at most (a hostile tree can be wide or cyclic). */
const MAX_TREE_NODES = 1000;
/** Other embedded files listed at most (each is a candidate attachment; see the attachment limits). */
const MAX_OTHER_FILES = 100;

/** A file embedded in the PDF beside the invoice XML, decoded only when asked (bounded like the invoice). */
export interface PdfEmbeddedFile {
  name: string;
  mimeCode?: string;
  description?: string;
  /** The decoded bytes; AppError DOCUMENT_TOO_LARGE beyond `max`, PDF_MALFORMED when it cannot be decoded. */
  read(max: number): Buffer;
}

const malformed = (why: string) => new AppError('invalid_data', `the PDF cannot be read: ${why}`, { code: 'PDF_MALFORMED' });

/**
 * The e-invoice XML embedded in a ZUGFeRD/Factur-X PDF (PDF/A-3 with an associated file), read with pdf-lib: the
 * catalog's EmbeddedFiles name tree. Nothing in the PDF is executed or rendered. The embedded stream is inflated
 * with zlib's `maxOutputLength`, so a compression bomb stops at `maxXmlBytes` instead of filling memory.
 */
export async function extractEmbeddedInvoice(
  bytes: Uint8Array,
  maxXmlBytes: number,
): Promise<{ name: string; xml: Buffer; others: PdfEmbeddedFile[] }> {
  let pdf: PDFDocument;
  try {
    pdf = await PDFDocument.load(bytes, { updateMetadata: false, throwOnInvalidObject: false });
  } catch (err) {
    throw malformed(
      String((err as Error)?.message ?? err)
        .split('\n')[0]!
        .slice(0, 200),
    );
  }
  const files = new Map<string, PDFDict>();
  let visited = 0;
  const walk = (node: PDFDict | undefined, depth: number) => {
    if (!node || depth > 16 || ++visited > MAX_TREE_NODES) return;
    const names = node.lookupMaybe(PDFName.of('Names'), PDFArray);
    if (names) {
      for (let i = 0; i + 1 < names.size(); i += 2) {
        const spec = names.lookupMaybe(i + 1, PDFDict);
        const name = textOf(names.lookup(i)) ?? (spec && (textOf(spec.lookup(PDFName.of('UF'))) ?? textOf(spec.lookup(PDFName.of('F')))));
        if (spec && name && !files.has(name)) files.set(name, spec);
      }
    }
    const kids = node.lookupMaybe(PDFName.of('Kids'), PDFArray);
    if (kids) for (let i = 0; i < kids.size(); i++) walk(kids.lookupMaybe(i, PDFDict), depth + 1);
  };
  try {
    const namesDict = pdf.catalog.lookupMaybe(PDFName.of('Names'), PDFDict);
    walk(namesDict?.lookupMaybe(PDFName.of('EmbeddedFiles'), PDFDict), 0);
  } catch (err) {
    throw malformed(String((err as Error)?.message ?? err).slice(0, 200));
  }
  const byName = [...files.entries()];
  const pick =
    INVOICE_NAMES.map((n) => byName.find(([name]) => name.toLowerCase() === n)).find(Boolean) ??
    byName.find(([name]) => name.toLowerCase().endsWith('.xml'));
  if (!pick)
    throw new AppError('unprocessable', 'the PDF carries no embedded e-invoice (no factur-x.xml, zugferd-invoice.xml or other XML file)', {
      code: 'PDF_WITHOUT_EINVOICE',
    });
  const [name, spec] = pick;
  const stream = spec.lookupMaybe(PDFName.of('EF'), PDFDict)?.lookup(PDFName.of('F'));
  if (!(stream instanceof PDFRawStream)) throw malformed(`the embedded file ${name.slice(0, 100)} has no content stream`);
  const others = byName
    .filter(([other]) => other !== name)
    .slice(0, MAX_OTHER_FILES)
    .map(([other, otherSpec]): PdfEmbeddedFile => {
      const file = otherSpec.lookupMaybe(PDFName.of('EF'), PDFDict)?.lookup(PDFName.of('F'));
      const subtype = file instanceof PDFRawStream ? file.dict.lookup(PDFName.of('Subtype')) : undefined;
      return {
        name: other.slice(0, 200),
        mimeCode: subtype instanceof PDFName ? subtype.decodeText().slice(0, 100) : undefined,
        description: textOf(otherSpec.lookup(PDFName.of('Desc')))?.slice(0, 2000),
        read: (max) => {
          if (!(file instanceof PDFRawStream)) throw malformed(`the embedded file ${other.slice(0, 100)} has no content stream`);
          return decodeStream(file, max);
        },
      };
    });
  return { name: name.slice(0, 200), xml: decodeStream(stream, maxXmlBytes), others };
}

function textOf(o: PDFObject | undefined): string | undefined {
  return o instanceof PDFString || o instanceof PDFHexString ? o.decodeText() : undefined;
}

function decodeStream(stream: PDFRawStream, max: number): Buffer {
  const filter = stream.dict.lookup(PDFName.of('Filter'));
  const filters = filter instanceof PDFArray ? filter.asArray() : filter ? [filter] : [];
  const names = filters.map((f) => (f instanceof PDFName ? f.asString() : '?'));
  const raw = Buffer.from(stream.getContents());
  if (names.length === 0) {
    if (raw.length > max) throw tooLarge(max);
    return raw;
  }
  if (names.length === 1 && names[0] === '/FlateDecode') {
    try {
      return inflateSync(raw, { maxOutputLength: max });
    } catch (err) {
      if (err instanceof RangeError || (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(max);
      throw malformed('the embedded file does not inflate');
    }
  }
  throw malformed(`the embedded file uses the filter ${names.join(' ').slice(0, 60)}; FlateDecode or none is supported`);
}

const tooLarge = (max: number) =>
  new AppError('payload_too_large', `the embedded e-invoice is larger than ${max} bytes once decompressed`, { code: 'DOCUMENT_TOO_LARGE' });
