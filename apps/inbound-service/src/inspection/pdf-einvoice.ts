import { inflateSync } from 'node:zlib';
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFRawStream, PDFString, type PDFObject } from 'pdf-lib';
import { AppError } from '@inv/service-kit';
import { isInvoiceRoot } from '../domain/precheck';

/** The names ZUGFeRD 1/2, Factur-X and XRechnung-in-PDF give the embedded invoice, preferred in this order. */
const INVOICE_NAMES = ['factur-x.xml', 'zugferd-invoice.xml', 'xrechnung.xml', 'zugferd_invoice.xml'];
/** Name tree nodes visited at most (a hostile tree can be wide or cyclic). */
const MAX_TREE_NODES = 1000;
/** Other embedded files listed at most (each is a candidate attachment; see the attachment limits). */
const MAX_OTHER_FILES = 100;
/** Embedded files decoded at most to find the invoice among them (each bounded by the XML limit). */
const MAX_SNIFFED = 10;
/** Characters of a decoded file read to see its root element (the prolog and the root's start tag). */
const SNIFF_CHARS = 64 * 1024;

/** A file embedded in the PDF beside the invoice XML, decoded only when asked (bounded like the invoice). */
export interface PdfEmbeddedFile {
  name: string;
  mimeCode?: string;
  description?: string;
  /** The decoded bytes; AppError DOCUMENT_TOO_LARGE beyond `max`, PDF_MALFORMED when it cannot be decoded. */
  read(max: number): Buffer;
}

const malformed = (why: string) => new AppError('invalid_data', `the PDF cannot be read: ${why}`, { code: 'PDF_MALFORMED' });

interface Embedded {
  name: string;
  spec: PDFDict;
  stream?: PDFRawStream;
  mimeCode?: string;
  relationship?: string;
}

/**
 * How likely an embedded file is the invoice, lower first: a name the standards give it (factur-x.xml, xrechnung.xml,
 * ...), then a PDF/A-3 associated file that is an alternative or the data of the document, then a file named or typed
 * XML, then any other file.
 */
function rank(f: Embedded): number {
  const known = INVOICE_NAMES.indexOf(f.name.toLowerCase());
  if (known >= 0) return known;
  const xml = /\.xml$/i.test(f.name) || /(^|\/)(text|application)(\/|#2f)xml$/i.test(f.mimeCode ?? '');
  if (f.relationship === 'Alternative' || f.relationship === 'Data' || f.relationship === 'Source') return xml ? 10 : 11;
  return xml ? 20 : 30;
}

/**
 * The e-invoice XML embedded in a PDF/A-3 (ZUGFeRD/Factur-X, XRechnung in PDF, or any PDF that carries a UBL or CII
 * e-invoice as an embedded file), read with pdf-lib: the catalog's EmbeddedFiles name tree. The invoice is the embedded
 * file whose root element is a UBL Invoice/CreditNote or a CII CrossIndustryInvoice, whatever its name: the files are
 * looked at in the order of `rank` (the standard names first) and the first invoice is taken. When none is an invoice,
 * a file with a standard invoice name is still taken (its own reading then says what is wrong with it); otherwise
 * PDF_WITHOUT_EINVOICE. Nothing in the PDF is executed or rendered. Every embedded stream is inflated with zlib's
 * `maxOutputLength`, so a compression bomb stops at `maxXmlBytes` instead of filling memory, and at most MAX_SNIFFED
 * files are decoded.
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
  let embedded: Embedded[];
  try {
    const namesDict = pdf.catalog.lookupMaybe(PDFName.of('Names'), PDFDict);
    walk(namesDict?.lookupMaybe(PDFName.of('EmbeddedFiles'), PDFDict), 0);
    embedded = [...files.entries()].map(([name, spec]) => {
      const stream = spec.lookupMaybe(PDFName.of('EF'), PDFDict)?.lookup(PDFName.of('F'));
      const subtype = stream instanceof PDFRawStream ? stream.dict.lookup(PDFName.of('Subtype')) : undefined;
      const relationship = spec.lookup(PDFName.of('AFRelationship'));
      return {
        name,
        spec,
        stream: stream instanceof PDFRawStream ? stream : undefined,
        mimeCode: subtype instanceof PDFName ? subtype.decodeText().slice(0, 100) : undefined,
        relationship: relationship instanceof PDFName ? relationship.decodeText() : undefined,
      };
    });
  } catch (err) {
    throw malformed(String((err as Error)?.message ?? err).slice(0, 200));
  }
  const { file, xml } = findInvoice(embedded, maxXmlBytes);
  const others = embedded
    .filter((other) => other !== file)
    .slice(0, MAX_OTHER_FILES)
    .map((other): PdfEmbeddedFile => ({
      name: other.name.slice(0, 200),
      mimeCode: other.mimeCode,
      description: textOf(other.spec.lookup(PDFName.of('Desc')))?.slice(0, 2000),
      read: (max) => {
        if (!other.stream) throw malformed(`the embedded file ${other.name.slice(0, 100)} has no content stream`);
        return decodeStream(other.stream, max);
      },
    }));
  return { name: file.name.slice(0, 200), xml, others };
}

/** The embedded file that is the e-invoice, decoded (see extractEmbeddedInvoice). */
function findInvoice(embedded: Embedded[], maxXmlBytes: number): { file: Embedded; xml: Buffer } {
  const candidates = embedded
    .map((f, i) => ({ f, i, r: rank(f) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((c) => c.f);
  const standard = candidates.find((f) => INVOICE_NAMES.includes(f.name.toLowerCase()));
  const decode = (f: Embedded) => {
    if (!f.stream) throw malformed(`the embedded file ${f.name.slice(0, 100)} has no content stream`);
    return decodeStream(f.stream, maxXmlBytes);
  };
  let xmlError: unknown;
  for (const f of candidates.slice(0, MAX_SNIFFED)) {
    let xml: Buffer;
    try {
      xml = decode(f);
    } catch (err) {
      if (f === standard) throw err; // the file named as the invoice cannot be read: that is the answer
      if (rank(f) <= 20) xmlError ??= err; // an XML file that cannot be read: named if no other file is the invoice
      continue;
    }
    if (isInvoiceRoot(new TextDecoder('utf-8').decode(xml.subarray(0, SNIFF_CHARS)))) return { file: f, xml };
  }
  // none is an invoice by its root element: a file with the invoice's standard name is read anyway, so its reading says why
  if (standard) return { file: standard, xml: decode(standard) };
  if (xmlError) throw xmlError;
  const listed = embedded
    .slice(0, 5)
    .map((f) => f.name.slice(0, 60))
    .join(', ');
  throw new AppError(
    'unprocessable',
    embedded.length
      ? `the PDF carries no embedded e-invoice: none of its ${embedded.length} embedded files (${listed}${embedded.length > 5 ? ', …' : ''}) is a UBL Invoice/CreditNote or CII CrossIndustryInvoice`
      : 'the PDF carries no embedded e-invoice (no embedded file at all; a ZUGFeRD/Factur-X or XRechnung PDF embeds its XML)',
    { code: 'PDF_WITHOUT_EINVOICE' },
  );
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
