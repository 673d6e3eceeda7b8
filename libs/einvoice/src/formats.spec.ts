import { domesticMixedRates, italianDomestic } from './fixtures';
import { einvoiceFileName, einvoiceFormats, embeddedXmlFileName, formatForApiInvoiceFormat, toEInvoiceXml } from './formats';

describe('formats', () => {
  it('maps API invoice formats onto XML formats', () => {
    expect(formatForApiInvoiceFormat('ZUGFERD')).toBe('cii-en16931');
    expect(formatForApiInvoiceFormat('PEPPOL')).toBe('peppol-ubl');
    expect(formatForApiInvoiceFormat('XRECHNUNG')).toBe('xrechnung-ubl');
    expect(formatForApiInvoiceFormat('FACTURAPA')).toBe('fatturapa');
    expect(formatForApiInvoiceFormat('FACTURAE')).toBe('facturae');
    expect(formatForApiInvoiceFormat('PDF')).toBeUndefined();
  });

  it('writes every format through one entry point', () => {
    for (const f of einvoiceFormats) {
      const xml = toEInvoiceXml(f, domesticMixedRates());
      expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    }
    expect(() => toEInvoiceXml('pdf' as never, domesticMixedRates())).toThrow(/unknown e-invoice format/);
  });

  it('names embedded and downloadable files', () => {
    expect(embeddedXmlFileName('cii-en16931')).toBe('factur-x.xml');
    expect(embeddedXmlFileName('xrechnung-ubl')).toBe('xrechnung.xml');
    expect(embeddedXmlFileName('peppol-ubl')).toBeUndefined();
    const inv = domesticMixedRates();
    expect(einvoiceFileName('cii-en16931', inv)).toBe('RE-2026-0001_factur-x.xml');
    expect(einvoiceFileName('xrechnung-cii', inv)).toBe('RE-2026-0001_xrechnung.xml');
    expect(einvoiceFileName('peppol-ubl', { ...inv, number: 'A/B 7' })).toBe('A_B_7_ubl.xml');
    expect(einvoiceFileName('facturae', inv)).toBe('RE-2026-0001_facturae.xml');
    expect(einvoiceFileName('fatturapa', italianDomestic())).toBe('IT01234567897_60042.xml');
    expect(() => einvoiceFileName('x' as never, inv)).toThrow(RangeError);
  });
});
