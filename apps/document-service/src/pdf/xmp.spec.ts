import fc from 'fast-check';
import { facturXXmp, isXmpSafeInfoText, xmlTextAscii } from './xmp';

function decode(xml: string): string {
  return xml
    .replace(/&#x([0-9A-F]+);/g, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

describe('xmlTextAscii', () => {
  it('escapes markup and non-ASCII characters', () => {
    expect(xmlTextAscii('Müller & Söhne <GmbH>')).toBe('M&#xFC;ller &amp; S&#xF6;hne &lt;GmbH&gt;');
    expect(xmlTextAscii('€ 😀')).toBe('&#x20AC; &#x1F600;');
  });

  it('always yields ASCII that decodes to the input (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        const clean = s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
        const out = xmlTextAscii(s);
        expect(/^[\x09\x0a\x0d\x20-\x7e]*$/.test(out)).toBe(true);
        expect(decode(out)).toBe(clean);
      }),
    );
  });
});

describe('facturXXmp', () => {
  it('describes the fx properties and declares the extension schema', () => {
    const xmp = facturXXmp({ fileName: 'factur-x.xml', conformanceLevel: 'EN 16931' });
    expect(xmp).toContain('<fx:DocumentType>INVOICE</fx:DocumentType>');
    expect(xmp).toContain('<fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>');
    expect(xmp).toContain('<fx:Version>1.0</fx:Version>');
    expect(xmp).toContain('<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>');
    expect(xmp).toContain('<pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#</pdfaSchema:namespaceURI>');
    expect(xmp).toContain('<pdfaSchema:prefix>fx</pdfaSchema:prefix>');
    for (const name of ['DocumentFileName', 'DocumentType', 'Version', 'ConformanceLevel']) {
      expect(xmp).toContain(`<pdfaProperty:name>${name}</pdfaProperty:name>`);
    }
    expect(/^[\x09\x0a\x0d\x20-\x7e]*$/.test(xmp)).toBe(true);
  });

  it('supports the XRechnung profile file name', () => {
    const xmp = facturXXmp({ fileName: 'xrechnung.xml', conformanceLevel: 'XRECHNUNG' });
    expect(xmp).toContain('<fx:DocumentFileName>xrechnung.xml</fx:DocumentFileName>');
    expect(xmp).toContain('<fx:ConformanceLevel>XRECHNUNG</fx:ConformanceLevel>');
  });
});

describe('isXmpSafeInfoText', () => {
  it('accepts plain ASCII and rejects markup or non-ASCII', () => {
    expect(isXmpSafeInfoText('Rechnung RE-2026-001')).toBe(true);
    expect(isXmpSafeInfoText('Müller')).toBe(false);
    expect(isXmpSafeInfoText('A & B')).toBe(false);
    expect(isXmpSafeInfoText('<x>')).toBe(false);
  });
});
