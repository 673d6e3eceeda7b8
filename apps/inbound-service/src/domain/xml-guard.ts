import { INBOUND_XML_LIMITS } from '@inv/contracts';
import { AppError } from '@inv/service-kit';

/** Deepest element nesting accepted: an e-invoice needs about 10; a deeper document is an attack on the parsers. */
export const MAX_XML_DEPTH = 128;

const refuse = (code: string, message: string, kind: 'invalid_data' | 'payload_too_large' | 'unsupported_media_type' = 'invalid_data') =>
  new AppError(kind, message, { code });

/**
 * The checks before any XML parser sees the bytes: size, encoding (UTF-8, as EN 16931 syntaxes require in
 * practice and as the XSD engine reads), no document type declaration at all (so no external DTD, no entity
 * and no entity expansion can exist: XXE and "billion laughs" are refused here, not defused in a parser), and
 * bounded work: nesting depth and the INBOUND_XML_LIMITS of the contracts (elements, attributes, text lengths).
 * Returns the text.
 */
export function guardXml(bytes: Uint8Array, maxBytes: number): string {
  if (bytes.length > maxBytes)
    throw refuse('DOCUMENT_TOO_LARGE', `the XML document has ${bytes.length} bytes; at most ${maxBytes} are accepted`, 'payload_too_large');
  if (bytes.length === 0) throw refuse('XML_NOT_WELL_FORMED', 'the document is empty');
  if ((bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0xff && bytes[1] === 0xfe))
    throw refuse('XML_ENCODING_UNSUPPORTED', 'the document is UTF-16; e-invoices are accepted in UTF-8');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw refuse('XML_ENCODING_UNSUPPORTED', 'the document is not valid UTF-8');
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const decl = /^\s*<\?xml[^>]*?encoding\s*=\s*["']([^"']+)["']/.exec(text);
  if (decl && !/^utf-?8$/i.test(decl[1]!))
    throw refuse('XML_ENCODING_UNSUPPORTED', `the document declares encoding ${decl[1]!.slice(0, 40)}; e-invoices are accepted in UTF-8`);
  if (/<!DOCTYPE/i.test(text) || /<!ENTITY/i.test(text))
    throw refuse(
      'XML_DTD_FORBIDDEN',
      'the document has a document type declaration (DTD); e-invoices have none, and entities are not resolved',
    );
  const exceeded = xmlBoundExceeded(text, { depth: MAX_XML_DEPTH, ...INBOUND_XML_LIMITS });
  if (exceeded) throw refuse(exceeded.code, exceeded.message);
  return text;
}

export interface XmlBounds {
  depth: number;
  elements: number;
  attributes: number;
  attributesPerElement: number;
  textChars: number;
}

/** The text directly inside such an element may be as long as the document: an embedded attachment, base64. */
const BINARY_OBJECT = /BinaryObject$/;

/**
 * The first bound of the work a parser and the rule sets would do that the document exceeds (nesting depth, elements,
 * attributes, attributes of one element, characters of one text or attribute value), counted on the text in one
 * linear pass before any parser sees it: comments and processing instructions are skipped, CDATA counts as text,
 * an attribute is an `=` outside quoted values. Hand-written rather than a SAX parser (saxes): this runs on the
 * request path for every upload, and the pass below is a few indexOf calls plus a loop over the start tags only
 * (about 10 ms for 5 MB), a few times cheaper than tokenizing everything; well-formedness is the parser's job later.
 */
export function xmlBoundExceeded(text: string, b: XmlBounds): { code: 'XML_TOO_DEEP' | 'XML_TOO_COMPLEX'; message: string } | undefined {
  const complex = (message: string) => ({ code: 'XML_TOO_COMPLEX' as const, message });
  let depth = 0;
  let elements = 0;
  let attributes = 0;
  /** Characters of text since the last start or end tag (CDATA included), and whether they belong to a …BinaryObject. */
  let textRun = 0;
  let binary = false;
  const addText = (chars: number) => {
    textRun += chars;
    return !binary && textRun > b.textChars;
  };
  const tooLongText = () => complex(`a text is longer than ${b.textChars} characters`);
  let i = 0;
  const n = text.length;
  while (i < n) {
    const lt = text.indexOf('<', i);
    if (addText((lt < 0 ? n : lt) - i)) return tooLongText();
    if (lt < 0) return undefined;
    if (text.startsWith('<!--', lt)) {
      const end = text.indexOf('-->', lt + 4);
      i = end < 0 ? n : end + 3;
    } else if (text.startsWith('<![CDATA[', lt)) {
      const end = text.indexOf(']]>', lt + 9);
      if (addText((end < 0 ? n : end) - lt - 9)) return tooLongText();
      i = end < 0 ? n : end + 3;
    } else if (text.startsWith('<?', lt)) {
      const end = text.indexOf('?>', lt + 2);
      i = end < 0 ? n : end + 2;
    } else if (text[lt + 1] === '/') {
      depth--;
      textRun = 0;
      binary = false;
      const end = text.indexOf('>', lt);
      i = end < 0 ? n : end + 1;
    } else {
      // a start tag: its name, then its end outside quoted attribute values, counting attributes and value lengths
      if (++elements > b.elements) return complex(`the document has more than ${b.elements} elements`);
      let j = lt + 1;
      while (j < n && !/[\s/>]/.test(text[j]!)) j++;
      const name = text.slice(lt + 1, j);
      let quote = '';
      let valueStart = 0;
      let own = 0;
      while (j < n) {
        const c = text[j]!;
        if (quote) {
          if (c === quote) {
            quote = '';
            if (j - valueStart > b.textChars) return complex(`an attribute value is longer than ${b.textChars} characters`);
          }
        } else if (c === '"' || c === "'") {
          quote = c;
          valueStart = j + 1;
        } else if (c === '=') {
          if (++own > b.attributesPerElement) return complex(`an element has more than ${b.attributesPerElement} attributes`);
          if (++attributes > b.attributes) return complex(`the document has more than ${b.attributes} attributes`);
        } else if (c === '>') break;
        j++;
      }
      if (quote && j - valueStart > b.textChars) return complex(`an attribute value is longer than ${b.textChars} characters`);
      if (text[j - 1] !== '/' && ++depth > b.depth)
        return { code: 'XML_TOO_DEEP', message: `elements are nested deeper than ${b.depth} levels` };
      textRun = 0;
      binary = text[j - 1] !== '/' && BINARY_OBJECT.test(name);
      i = j + 1;
    }
  }
  return undefined;
}

/** Whether elements nest deeper than `limit` (xmlBoundExceeded with only the depth bounded). */
export function depthExceeds(text: string, limit: number): boolean {
  const inf = Number.POSITIVE_INFINITY;
  return (
    xmlBoundExceeded(text, { depth: limit, elements: inf, attributes: inf, attributesPerElement: inf, textChars: inf })?.code ===
    'XML_TOO_DEEP'
  );
}
