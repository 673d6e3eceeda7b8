import type { InvoiceSnapshot } from '@inv/contracts';
import { embeddedXmlFileName, einvoiceFileName, formatForApiInvoiceFormat, toEInvoiceXml, type EInvoice } from '@inv/einvoice';
import { computeTotals } from '@inv/money';
import { renderInvoicePdf } from '../pdf';

type ApiFormat = 'PDF' | 'ZUGFERD' | 'XRECHNUNG' | 'PEPPOL' | 'FACTURAPA' | 'FACTURAE';

export interface RenderedDocuments {
  pdf: { filename: string; body: Buffer };
  xml?: { filename: string; body: Buffer };
}

/**
 * BT-22 of a test-mode e-invoice, first of its notes, so also first under the PDF's notes ("Hinweise"), in the
 * invoice's language (FatturaPA's Latin-1 Causale gets the dash as "-", libs/einvoice toLatin1).
 */
export const TEST_MODE_NOTES = {
  de: 'TEST – im Testmodus erstellt, keine gültige Rechnung',
  en: 'TEST - created in test mode, not a valid invoice',
} as const satisfies Record<InvoiceSnapshot['language'], string>;

const safeName = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '_');

/**
 * Snapshot -> PDF/A-3 (+ the format's XML). ZUGFeRD and XRechnung embed their XML in the PDF (hybrid
 * invoice); PEPPOL, FatturaPA and Facturae deliver the XML as the legal document with the PDF as its visual.
 */
/** An attachment of the invoice with its bytes (read from storage by the caller). */
export interface InvoiceAttachmentFile {
  id: number;
  filename: string;
  contentType: string;
  description?: string;
  body: Buffer;
}

export interface RenderOptions {
  /** DRAFT watermark (previews). */
  draft?: boolean;
  /**
   * A test twin's invoice (docs/test-mode.md): the PDF carries a TEST mark, and the e-invoice a first note (BT-22)
   * saying it is no valid invoice.
   */
  testMode?: boolean;
  attachments?: InvoiceAttachmentFile[];
  /** The company's letterhead logo (PNG or JPEG bytes, already resized by account-service). */
  logo?: Buffer;
}

export async function renderInvoiceDocuments(
  snapshot: InvoiceSnapshot,
  format: ApiFormat,
  templateId: number,
  opts: RenderOptions = {},
): Promise<RenderedDocuments> {
  const { draft = false, attachments = [], logo, testMode = false } = opts;
  const invoice: EInvoice = {
    ...snapshot,
    ...(testMode ? { notes: [TEST_MODE_NOTES[snapshot.language], ...(snapshot.notes ?? [])] } : {}),
    // BG-24 in UBL for the types EN 16931 allows (embeddableAttachments); every one goes into the PDF/A-3
    attachments: attachments.length
      ? attachments.map((a) => ({
          id: `ATT-${a.id}`,
          filename: a.filename,
          mimeCode: a.contentType,
          description: a.description,
          content: a.body,
        }))
      : undefined,
  };
  const totals = computeTotals({ lines: invoice.lines });
  const xmlFormat = formatForApiInvoiceFormat(format);
  const xml = xmlFormat ? toEInvoiceXml(xmlFormat, invoice) : undefined;
  const embedded = xmlFormat ? embeddedXmlFileName(xmlFormat) : undefined;
  const pdf = await renderInvoicePdf(invoice, {
    template: templateId,
    totals,
    draft,
    testMode,
    logo,
    attachment: xml && embedded ? { filename: embedded, xml, facturX: embedded === 'factur-x.xml' } : undefined,
    supplements: attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, body: a.body, description: a.description })),
  });
  const prefix = invoice.typeCode === '381' ? 'credit-note' : 'invoice';
  return {
    pdf: { filename: `${prefix}-${safeName(invoice.number)}.pdf`, body: pdf },
    xml: xml && xmlFormat ? { filename: einvoiceFileName(xmlFormat, invoice), body: Buffer.from(xml, 'utf8') } : undefined,
  };
}
