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
  ])('%j %s (pdf %s) -> %s %s', (root, id, pdf, format, version) => {
    const detected = detectFormat(root, id, pdf);
    expect([detected.format, detected.version]).toEqual([format, version]);
  });

  it('refuses other vocabularies and a UBL inside a PDF', () => {
    expect(() => detectFormat({ namespace: 'urn:x', localName: 'Invoice' }, '')).toThrow(AppError);
    expect(() => detectFormat(ubl, 'urn:cen.eu:en16931:2017', true)).toThrow(AppError);
  });
});
