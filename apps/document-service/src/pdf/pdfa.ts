import PDFDocument from 'pdfkit';
import { baseGlyphs, cachedSubset, loadFont, sharedLayoutCache, type FontName } from './fonts';
import type { PdfAttachment, PdfSupplement } from './types';
import { facturXXmp, isXmpSafeInfoText, type FacturXConformanceLevel } from './xmp';

/** pdfkit 0.20 supports `relationship` (AFRelationship); @types/pdfkit 0.17 does not know it yet. */
type AttachmentOptions = PDFKit.Mixins.PDFAttachmentOptions & {
  relationship?: 'Alternative' | 'Data' | 'Source' | 'Supplement' | 'Unspecified';
};

export interface PdfADocumentOptions {
  lang: 'de' | 'en';
  fonts: { regular: FontName; bold: FontName };
  title?: string;
  author?: string;
  subject?: string;
  creationDate?: Date;
}

export interface PdfADocument {
  doc: PDFKit.PDFDocument;
  /** Resolves with the finished file once `doc.end()` has been called. */
  result: Promise<Buffer>;
}

/** Names the renderers pass to `doc.font()`. */
export const REGULAR = 'regular';
export const BOLD = 'bold';

/**
 * A4 PDF/A-3b document. pdfkit writes the sRGB output intent and the pdfaid XMP itself when given
 * `subset: 'PDF/A-3b'`, but only with pdfVersion >= 1.4 (with 1.3 it writes no XMP at all), hence 1.7.
 * Margins are 0 because the renderers place everything themselves and break pages on their own;
 * pdfkit's automatic page break would otherwise fire inside the footer.
 * `bufferPages` keeps pages open so the footer can print "page n of N" once N is known.
 */
export function createPdfADocument(options: PdfADocumentOptions): PdfADocument {
  // Info strings are copied unescaped into the XMP by pdfkit; drop any that would break it.
  const info: PDFKit.DocumentInfo = { Producer: 'PDFKit', Creator: 'invoicing document-service' };
  if (options.title && isXmpSafeInfoText(options.title)) info.Title = options.title;
  if (options.author && isXmpSafeInfoText(options.author)) info.Author = options.author;
  if (options.subject && isXmpSafeInfoText(options.subject)) info.Subject = options.subject;
  if (options.creationDate) info.CreationDate = options.creationDate;

  const doc = new PDFDocument({
    subset: 'PDF/A-3b',
    pdfVersion: '1.7',
    size: 'A4',
    margin: 0,
    bufferPages: true,
    lang: options.lang === 'de' ? 'de-DE' : 'en',
    info,
    // No default font: pdfkit would otherwise load Helvetica (a standard font PDF/A rejects because
    // it is not embedded), and a default TrueType font makes the first doc.font() call compare the
    // two fonts' whole name tables (JSON.stringify, ~25 % of a render).
    font: null as unknown as string,
  });
  doc.registerFont(REGULAR, loadFont(options.fonts.regular) as unknown as PDFKit.Mixins.PDFFontSource);
  doc.registerFont(BOLD, loadFont(options.fonts.bold) as unknown as PDFKit.Mixins.PDFFontSource);
  const internals = doc as unknown as PdfKitInternals;
  let last: PdfKitReference | undefined;
  const ref = internals.ref.bind(doc);
  internals.ref = (data) => (last = ref(data));
  useFontCaches(doc, BOLD, options.fonts.bold, () => last);
  useFontCaches(doc, REGULAR, options.fonts.regular, () => last); // leaves REGULAR selected

  const chunks: Buffer[] = [];
  const result = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  return { doc, result };
}

/** The pdfkit internals the speed-ups below touch (pdfkit 0.20; the PDF tests cover them). */
interface PdfKitReference {
  data: Record<string, unknown>;
  compress: boolean;
}
interface PdfKitInternals {
  ref(data?: Record<string, unknown>): PdfKitReference;
  _font: {
    scale: number;
    widths: number[];
    unicode: number[][];
    layoutCache?: Record<string, unknown>;
    subset?: { glyphs: number[]; includeGlyph(id: number): number; encode(): Uint8Array };
  } | null;
}

/**
 * Selects a registered font and wires in the caches of fonts.ts: the shared layout cache, the fixed
 * base glyph set and the cached (pre-deflated) subset. pdfkit's EmbeddedFont.embed() creates the
 * font-file stream with doc.ref() and fills it with subset.encode() right after; `lastRef` is that
 * stream, which then gets the cached deflated bytes with /Filter /FlateDecode instead of being
 * compressed again.
 */
function useFontCaches(doc: PDFKit.PDFDocument, registered: string, name: FontName, lastRef: () => PdfKitReference | undefined): void {
  doc.font(registered);
  const font = (doc as unknown as PdfKitInternals)._font;
  if (!font) return;
  // Only when pdfkit's own per-document cache is enabled (fontLayoutCache option, on by default).
  if (font.layoutCache) font.layoutCache = sharedLayoutCache(name);
  const subset = font.subset;
  if (!subset || typeof subset.encode !== 'function') return;
  // What EmbeddedFont.encode() records for a glyph it draws, for the whole base set up front.
  for (const glyph of baseGlyphs(name)) {
    const gid = subset.includeGlyph(glyph.id);
    font.widths[gid] ??= glyph.advanceWidth * font.scale;
    font.unicode[gid] ??= glyph.codePoints;
  }
  const encode = subset.encode.bind(subset);
  subset.encode = () => {
    const cached = cachedSubset(name, subset.glyphs, encode);
    const stream = lastRef();
    if (stream && stream.compress && !stream.data.Filter) {
      stream.compress = false;
      stream.data.Filter = 'FlateDecode';
      return cached.deflated;
    }
    return cached.raw;
  };
}

/**
 * Embeds the structured invoice as an associated file (PDF/A-3): pdfkit's `file()` writes the
 * EmbeddedFile stream with /Subtype /text#2Fxml, the Filespec with /AFRelationship and adds it to
 * the catalog's /AF array and the EmbeddedFiles name tree. For Factur-X the fx XMP and its
 * extension schema are appended to the document metadata.
 */
export function embedXml(doc: PDFKit.PDFDocument, attachment: PdfAttachment, date: Date): void {
  if (!attachment.filename) throw new RangeError('attachment.filename is required');
  if (typeof attachment.xml !== 'string' || attachment.xml.length === 0) {
    throw new RangeError('attachment.xml must be a non-empty string');
  }
  const isInvoiceXml = attachment.filename === 'factur-x.xml' || attachment.filename === 'xrechnung.xml';
  doc.file(Buffer.from(attachment.xml, 'utf8'), {
    name: attachment.filename,
    type: 'text/xml',
    description: isInvoiceXml ? 'Factur-X/ZUGFeRD invoice' : 'Structured invoice data',
    // Alternative: the XML is an equivalent representation of the visible invoice (Factur-X rule).
    relationship: isInvoiceXml || attachment.facturX ? 'Alternative' : 'Data',
    creationDate: date,
    modifiedDate: date,
  } satisfies AttachmentOptions as AttachmentOptions);
  if (attachment.facturX) {
    const level: FacturXConformanceLevel =
      attachment.conformanceLevel ?? (attachment.filename === 'xrechnung.xml' ? 'XRECHNUNG' : 'EN 16931');
    doc.appendXML(facturXXmp({ fileName: attachment.filename, conformanceLevel: level }));
  }
}

/**
 * Embeds a supplementary file (PDF/A-3 associated file, /AFRelationship /Supplement) beside the invoice
 * XML, which stays /Alternative: pdfkit writes the EmbeddedFile with its MIME /Subtype and adds the
 * Filespec to the catalog's /AF array and the EmbeddedFiles name tree.
 */
export function embedSupplement(doc: PDFKit.PDFDocument, file: PdfSupplement, date: Date): void {
  doc.file(file.body, {
    name: file.filename,
    type: file.contentType,
    description: file.description ?? file.filename,
    relationship: 'Supplement',
    creationDate: date,
    modifiedDate: date,
  } satisfies AttachmentOptions as AttachmentOptions);
}
