import type { InvoiceSnapshot } from '@inv/contracts';
import { embeddedXmlFileName, einvoiceFileName, formatForApiInvoiceFormat, toEInvoiceXml, type EInvoice } from '@inv/einvoice';
import { computeTotals } from '@inv/money';
import { renderInvoicePdf } from '../pdf';

type ApiFormat = 'PDF' | 'ZUGFERD' | 'XRECHNUNG' | 'PEPPOL' | 'FACTURAPA' | 'FACTURAE';

export interface RenderedDocuments {
  pdf: { filename: string; body: Buffer };
  xml?: { filename: string; body: Buffer };
}

const safeName = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '_');

/**
 * Snapshot -> PDF/A-3 (+ the format's XML). ZUGFeRD and XRechnung embed their XML in the PDF (hybrid
 * invoice); PEPPOL, FatturaPA and Facturae deliver the XML as the legal document with the PDF as its visual.
 */
export async function renderInvoiceDocuments(snapshot: InvoiceSnapshot, format: ApiFormat, templateId: number, draft = false): Promise<RenderedDocuments> {
  const invoice = snapshot as EInvoice;
  const totals = computeTotals({ lines: invoice.lines });
  const xmlFormat = formatForApiInvoiceFormat(format);
  const xml = xmlFormat ? toEInvoiceXml(xmlFormat, invoice) : undefined;
  const embedded = xmlFormat ? embeddedXmlFileName(xmlFormat) : undefined;
  const pdf = await renderInvoicePdf(invoice, {
    template: templateId,
    totals,
    draft,
    attachment: xml && embedded ? { filename: embedded, xml, facturX: embedded === 'factur-x.xml' } : undefined,
  });
  const prefix = invoice.typeCode === '381' ? 'credit-note' : 'invoice';
  return {
    pdf: { filename: `${prefix}-${safeName(invoice.number)}.pdf`, body: pdf },
    xml: xml && xmlFormat ? { filename: einvoiceFileName(xmlFormat, invoice), body: Buffer.from(xml, 'utf8') } : undefined,
  };
}
