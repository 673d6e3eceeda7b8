import { EMBEDDABLE_MIME_CODES } from '@inv/contracts/tables';
import type { EInvoiceFormat } from './format-names';
import type { EInvoiceAttachment } from './model';

export { EMBEDDABLE_MIME_CODES };

export interface LeftOut {
  filename: string;
  reason: string;
}

/**
 * Which attachments an e-invoice syntax embeds (UBL: BG-24 AdditionalDocumentReference with an embedded
 * binary object, for the mime codes EN 16931 allows) and why the others are left out. PDF/A-3 hybrids
 * (ZUGFeRD, XRechnung CII inside the PDF) carry every attachment as an associated file of the PDF instead.
 */
export function embeddableAttachments<A extends Pick<EInvoiceAttachment, 'filename' | 'mimeCode'>>(
  format: EInvoiceFormat | undefined,
  attachments: readonly A[],
): { embedded: A[]; leftOut: LeftOut[] } {
  const ubl = format === 'peppol-ubl' || format === 'xrechnung-ubl' || format === 'ubl-en16931';
  if (!ubl) {
    const reason =
      format === 'fatturapa' || format === 'facturae'
        ? `${format === 'fatturapa' ? 'FatturaPA' : 'Facturae'} files are sent without embedded documents; the attachment travels in the PDF`
        : 'embedded in the PDF/A-3 as an associated file (Supplement), not in the XML';
    return { embedded: [], leftOut: attachments.map((a) => ({ filename: a.filename, reason })) };
  }
  const embedded: A[] = [];
  const leftOut: LeftOut[] = [];
  for (const a of attachments) {
    if ((EMBEDDABLE_MIME_CODES as readonly string[]).includes(a.mimeCode)) embedded.push(a);
    else
      leftOut.push({
        filename: a.filename,
        reason: `${a.mimeCode} may not be embedded in a UBL e-invoice (allowed: PDF, PNG, JPEG, CSV, XLSX, ODS)`,
      });
  }
  return { embedded, leftOut };
}
