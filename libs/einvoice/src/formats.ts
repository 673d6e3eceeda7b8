import { toCii } from './cii';
import { toFacturae } from './facturae';
import { toFatturaPA } from './fatturapa';
import type { EInvoice } from './model';
import { toUbl } from './ubl';
import type { EInvoiceFormat } from './format-names';

export * from './format-names';

/** Writes the invoice in the given format (an XML string, UTF-8 declared). */
export function toEInvoiceXml(format: EInvoiceFormat, invoice: EInvoice): string {
  switch (format) {
    case 'cii-en16931':
      return toCii(invoice, { profile: 'en16931' });
    case 'xrechnung-cii':
      return toCii(invoice, { profile: 'xrechnung' });
    case 'xrechnung-ubl':
      return toUbl(invoice, { profile: 'xrechnung' });
    case 'peppol-ubl':
      return toUbl(invoice, { profile: 'peppol' });
    case 'ubl-en16931':
      return toUbl(invoice, { profile: 'en16931' });
    case 'fatturapa':
      return toFatturaPA(invoice);
    case 'facturae':
      return toFacturae(invoice);
    default:
      throw new RangeError(`unknown e-invoice format ${JSON.stringify(format)}`);
  }
}
