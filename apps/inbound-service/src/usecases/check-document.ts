import { INBOUND_XML_MAX_BYTES } from '@inv/contracts';
import type { AttachmentLimits } from '../domain/attachments';
import type { ConformanceKit } from '../inspection/conformance-kit';
import { withPdfAttachments } from '../inspection/embedded-attachments';
import { inspectXml, type Inspection } from '../inspection/inspect';
import { extractEmbeddedInvoice } from '../inspection/pdf-einvoice';
import type { ReceivedDocument } from '../support/receive-body';

/**
 * Reads and validates one received document: XML as it is, a PDF through the e-invoice XML it embeds
 * (ZUGFeRD/Factur-X). The XML limit applies to the embedded file too, decompressed. With attachment limits, the
 * files embedded in the XML are decoded too, and a PDF's other embedded files after them.
 */
export async function checkDocument(
  kit: ConformanceKit,
  doc: ReceivedDocument,
  xmlMaxBytes = INBOUND_XML_MAX_BYTES,
  attachmentLimits?: AttachmentLimits,
): Promise<Inspection> {
  if (doc.mediaType === 'application/pdf') {
    const { xml, others } = await extractEmbeddedInvoice(doc.bytes, xmlMaxBytes);
    const inspection = await inspectXml(kit, xml, { maxBytes: xmlMaxBytes, fromPdf: true, attachmentLimits });
    return attachmentLimits && others.length ? withPdfAttachments(inspection, others, attachmentLimits) : inspection;
  }
  return inspectXml(kit, doc.bytes, { maxBytes: xmlMaxBytes, attachmentLimits });
}
