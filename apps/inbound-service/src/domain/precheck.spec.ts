import { precheckXml, rootTag } from './precheck';

const bytes = (s: string) => Buffer.from(s, 'utf8');
const codeOf = (s: string) => {
  try {
    precheckXml(bytes(s), 1024 * 1024);
    return 'ok';
  } catch (err) {
    return (err as { code?: string }).code;
  }
};

describe('precheckXml: what is refused before an upload is accepted', () => {
  it('finds the root tag after the prolog', () => {
    expect(rootTag('<?xml version="1.0"?>\n<!-- c --><?pi x?>\n<a:Invoice xmlns:a="u">')).toBe('<a:Invoice xmlns:a="u">');
    expect(rootTag('text <Invoice/>')).toBeUndefined();
    expect(rootTag('<?xml version="1.0"?>')).toBeUndefined();
  });

  it.each([
    ['<ubl:Invoice xmlns:ubl="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><x/></ubl:Invoice>', 'ok'],
    ['<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cbc="c"><cbc:ID>1</Invoice>', 'ok'], // the job finds it broken
    ["<CreditNote xmlns='urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2'/>", 'ok'],
    ['<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"/>', 'ok'],
    ['<rsm:Invoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"/>', 'UNSUPPORTED_FORMAT'],
    ['<ubl:Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>', 'UNSUPPORTED_FORMAT'], // prefix not declared
    ['<Invoice/>', 'UNSUPPORTED_FORMAT'],
    ['<html xmlns="http://www.w3.org/1999/xhtml"/>', 'UNSUPPORTED_FORMAT'],
    ['<!-- only a comment -->', 'XML_NOT_WELL_FORMED'],
    ['<!DOCTYPE x><Invoice/>', 'XML_DTD_FORBIDDEN'],
    [`${'<a>'.repeat(200)}${'</a>'.repeat(200)}`, 'XML_TOO_DEEP'],
  ])('case %#', (xml, code) => expect(codeOf(xml)).toBe(code));
});
