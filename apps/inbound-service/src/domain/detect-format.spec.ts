import { AppError } from '@inv/service-kit';
import { detectFormat, NS } from './detect-format';

const ubl = { namespace: NS.ublInvoice, localName: 'Invoice' };
const cii = { namespace: NS.cii, localName: 'CrossIndustryInvoice' };

describe('detectFormat', () => {
  it.each([
    [ubl, 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0', false, 'xrechnung-ubl', '3.0'],
    [cii, 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0', false, 'xrechnung-cii', '3.0'],
    [ubl, 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0', false, 'peppol-ubl', '3.0'],
    [{ namespace: NS.ublCreditNote, localName: 'CreditNote' }, 'urn:cen.eu:en16931:2017', false, 'ubl-en16931', undefined],
    [cii, 'urn:cen.eu:en16931:2017', false, 'cii-en16931', undefined],
    [cii, 'urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended', true, 'factur-x', undefined],
    [cii, 'urn:cen.eu:en16931:2017', true, 'factur-x', undefined],
    // an XRechnung inside a PDF (ours embeds the UBL as xrechnung.xml) is read and checked as XRechnung
    [ubl, 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0', true, 'xrechnung-ubl', '3.0'],
    [cii, 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0', true, 'xrechnung-cii', '3.0'],
    [ubl, 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0', true, 'peppol-ubl', '3.0'],
  ])('%j %s (pdf %s) -> %s %s', (root, id, pdf, format, version) => {
    const detected = detectFormat(root, id, pdf);
    expect([detected.format, detected.version]).toEqual([format, version]);
  });

  it('refuses other vocabularies, from a PDF too', () => {
    expect(() => detectFormat({ namespace: 'urn:x', localName: 'Invoice' }, '')).toThrow(AppError);
    expect(() => detectFormat({ namespace: 'urn:x', localName: 'Invoice' }, '', true)).toThrow(AppError);
    expect(detectFormat(ubl, 'urn:cen.eu:en16931:2017', true).format).toBe('ubl-en16931');
  });
});
