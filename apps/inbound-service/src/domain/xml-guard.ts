import { AppError } from '@inv/service-kit';

/** Deepest element nesting accepted: an e-invoice needs about 10; a deeper document is an attack on the parsers. */
export const MAX_XML_DEPTH = 128;

const refuse = (code: string, message: string, kind: 'invalid_data' | 'payload_too_large' | 'unsupported_media_type' = 'invalid_data') =>
  new AppError(kind, message, { code });

/**
 * The checks before any XML parser sees the bytes: size, encoding (UTF-8, as EN 16931 syntaxes require in
 * practice and as the XSD engine reads), no document type declaration at all (so no external DTD, no entity
 * and no entity expansion can exist: XXE and "billion laughs" are refused here, not defused in a parser), and
 * a bounded nesting depth. Returns the text.
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
  if (depthExceeds(text, MAX_XML_DEPTH)) throw refuse('XML_TOO_DEEP', `elements are nested deeper than ${MAX_XML_DEPTH} levels`);
  return text;
}

/**
 * Element depth counted on the text in one linear pass (comments, CDATA, processing instructions and quoted
 * attribute values skipped), before a recursive parser or stylesheet could be driven into a stack overflow.
 */
export function depthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const lt = text.indexOf('<', i);
    if (lt < 0) return false;
    if (text.startsWith('<!--', lt)) {
      const end = text.indexOf('-->', lt + 4);
      i = end < 0 ? n : end + 3;
    } else if (text.startsWith('<![CDATA[', lt)) {
      const end = text.indexOf(']]>', lt + 9);
      i = end < 0 ? n : end + 3;
    } else if (text.startsWith('<?', lt)) {
      const end = text.indexOf('?>', lt + 2);
      i = end < 0 ? n : end + 2;
    } else if (text[lt + 1] === '/') {
      depth--;
      const end = text.indexOf('>', lt);
      i = end < 0 ? n : end + 1;
    } else {
      // a start tag: find its end outside quoted attribute values
      let j = lt + 1;
      let quote = '';
      while (j < n) {
        const c = text[j]!;
        if (quote) {
          if (c === quote) quote = '';
        } else if (c === '"' || c === "'") quote = c;
        else if (c === '>') break;
        j++;
      }
      if (text[j - 1] !== '/' && ++depth > limit) return true;
      i = j + 1;
    }
  }
  return false;
}
