import type { EInvoice } from './model';
import { splitVatId } from './xml-util';

/** Our e-invoice formats; the names are those of the conformance kit's `validate` script. */
export type EInvoiceFormat = 'cii-en16931' | 'xrechnung-cii' | 'xrechnung-ubl' | 'peppol-ubl' | 'ubl-en16931' | 'fatturapa' | 'facturae';

export const einvoiceFormats: readonly EInvoiceFormat[] = [
  'cii-en16931',
  'xrechnung-cii',
  'xrechnung-ubl',
  'peppol-ubl',
  'ubl-en16931',
  'fatturapa',
  'facturae',
];

/** The API's `invoice_format` values. */
export type ApiInvoiceFormat = 'PDF' | 'ZUGFERD' | 'PEPPOL' | 'FACTURAPA' | 'FACTURAE' | 'XRECHNUNG';

/** Which XML an API `invoice_format` produces; `PDF` has none. */
export function formatForApiInvoiceFormat(apiFormat: ApiInvoiceFormat): EInvoiceFormat | undefined {
  switch (apiFormat) {
    case 'ZUGFERD':
      return 'cii-en16931';
    case 'PEPPOL':
      return 'peppol-ubl';
    case 'XRECHNUNG':
      return 'xrechnung-ubl';
    case 'FACTURAPA':
      return 'fatturapa';
    case 'FACTURAE':
      return 'facturae';
    case 'PDF':
      return undefined;
  }
}

/**
 * Name of the XML attachment inside a hybrid PDF: Factur-X/ZUGFeRD mandates `factur-x.xml`; XRechnung
 * carried in a PDF uses `xrechnung.xml`. Other formats are not embedded by convention.
 */
export function embeddedXmlFileName(format: EInvoiceFormat): 'factur-x.xml' | 'xrechnung.xml' | undefined {
  if (format === 'cii-en16931') return 'factur-x.xml';
  if (format === 'xrechnung-cii' || format === 'xrechnung-ubl') return 'xrechnung.xml';
  return undefined;
}

const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '_');

/**
 * File name for the standalone XML download (xml-link). FatturaPA follows the SdI convention
 * `<country><id>_<progressive>.xml` (progressive: 5 alphanumerics from the invoice number).
 */
export function einvoiceFileName(format: EInvoiceFormat, invoice: Pick<EInvoice, 'number' | 'seller'>): string {
  const number = safe(invoice.number);
  switch (format) {
    case 'cii-en16931':
      return `${number}_factur-x.xml`;
    case 'xrechnung-cii':
    case 'xrechnung-ubl':
      return `${number}_xrechnung.xml`;
    case 'peppol-ubl':
    case 'ubl-en16931':
      return `${number}_ubl.xml`;
    case 'fatturapa': {
      const id = invoice.seller.vatId
        ? splitVatId(invoice.seller.vatId)
        : { country: 'IT', code: invoice.seller.fiscalCode ?? '00000000000' };
      const progressive = (invoice.number.replace(/[^A-Za-z0-9]/g, '').slice(-5) || '1').padStart(5, '0');
      return `${id.country}${id.code}_${progressive}.xml`;
    }
    case 'facturae':
      return `${number}_facturae.xml`; // signed files would be .xsig
    default:
      throw new RangeError(`unknown e-invoice format ${JSON.stringify(format)}`);
  }
}
