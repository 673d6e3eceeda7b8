import { AppError } from '@inv/service-kit';
import { depthExceeds, guardXml, xmlBoundExceeded } from './xml-guard';

const codeOf = (text: string | Buffer, max = 1000) => {
  try {
    guardXml(typeof text === 'string' ? Buffer.from(text) : text, max);
    return 'OK';
  } catch (err) {
    return err instanceof AppError ? err.code : String(err);
  }
};

describe('guardXml', () => {
  it.each([
    ['<a/>', 'OK'],
    ['\uFEFF<?xml version="1.0" encoding="UTF-8"?><a/>', 'OK'],
    ['<!DOCTYPE a><a/>', 'XML_DTD_FORBIDDEN'],
    ['<a><!ENTITY x "y"></a>', 'XML_DTD_FORBIDDEN'],
    ['<?xml version="1.0" encoding="windows-1252"?><a/>', 'XML_ENCODING_UNSUPPORTED'],
    ['', 'XML_NOT_WELL_FORMED'],
    ['x'.repeat(1001), 'DOCUMENT_TOO_LARGE'],
  ])('%j -> %s', (text, code) => expect(codeOf(text)).toBe(code));

  it('refuses UTF-16 and invalid UTF-8', () => {
    expect(codeOf(Buffer.from([0xff, 0xfe, 0x3c, 0x00]))).toBe('XML_ENCODING_UNSUPPORTED');
    expect(codeOf(Buffer.from([0x3c, 0x61, 0xc3, 0x28, 0x2f, 0x3e]))).toBe('XML_ENCODING_UNSUPPORTED');
  });
});

describe('depthExceeds', () => {
  it('counts elements, not comments, CDATA, processing instructions or > inside attribute values', () => {
    const nested = (n: number) => '<a>'.repeat(n) + '</a>'.repeat(n);
    expect(depthExceeds(nested(10), 10)).toBe(false);
    expect(depthExceeds(nested(11), 10)).toBe(true);
    expect(depthExceeds(`<a x="<b>">${'<!-- <c><c><c> -->'}<![CDATA[<d><d>]]><?pi <e>?><f/><f/></a>`, 1)).toBe(false);
  });
});

describe('xmlBoundExceeded: the work of a document bounded before a parser sees it', () => {
  const bounds = { depth: 128, elements: 10, attributes: 6, attributesPerElement: 3, textChars: 20 };
  const messageOf = (text: string) => xmlBoundExceeded(text, bounds)?.message ?? 'OK';
  it.each([
    [`<a>${'<b/>'.repeat(9)}</a>`, 'OK'],
    [`<a>${'<b/>'.repeat(10)}</a>`, 'the document has more than 10 elements'],
    ['<a x="1" y="2" z="3"><b u="1" v="2" w="3"/></a>', 'OK'],
    ['<a x="1" y="2" z="3"><b u="1" v="2" w="3"/><c q="1"/></a>', 'the document has more than 6 attributes'],
    ['<a w="1" x="2" y="3" z="4"/>', 'an element has more than 3 attributes'],
    ['<a x="a=b=c=d=e"/>', 'OK'], // = inside a value is no attribute
    [`<a>${'x'.repeat(20)}</a>`, 'OK'],
    [`<a>${'x'.repeat(21)}</a>`, 'a text is longer than 20 characters'],
    [`<a>${'x'.repeat(15)}<![CDATA[${'y'.repeat(6)}]]></a>`, 'a text is longer than 20 characters'], // CDATA is text
    [`<a>${'x'.repeat(15)}<!-- ${'c'.repeat(40)} --></a>`, 'OK'], // comments are not
    [`<a x="${'v'.repeat(21)}"/>`, 'an attribute value is longer than 20 characters'],
    [`<a><cbc:EmbeddedDocumentBinaryObject mimeCode="application/pdf">${'QUJD'.repeat(100)}</cbc:EmbeddedDocumentBinaryObject></a>`, 'OK'],
    [`<a><cbc:EmbeddedDocumentBinaryObject/>${'x'.repeat(21)}</a>`, 'a text is longer than 20 characters'], // text after it is the parent's
  ])('%#: %s', (text, expected) => expect(messageOf(text)).toBe(expected));

  it('refuses the red team document (200,000 elements, 2-4 MB) with XML_TOO_COMPLEX, and quickly', () => {
    const heavy = `<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">${'<Note>x</Note>'.repeat(200_000)}</Invoice>`;
    const started = performance.now();
    expect(codeOf(heavy, 5 * 1024 * 1024)).toBe('XML_TOO_COMPLEX');
    expect(performance.now() - started).toBeLessThan(1000);
    const attributes = `<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">${'<N a="1" b="2"/>'.repeat(30_000)}</Invoice>`;
    expect(codeOf(attributes, 5 * 1024 * 1024)).toBe('XML_TOO_COMPLEX');
  });
});
