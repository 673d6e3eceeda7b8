import { AppError } from '@inv/service-kit';
import { depthExceeds, guardXml } from './xml-guard';

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
