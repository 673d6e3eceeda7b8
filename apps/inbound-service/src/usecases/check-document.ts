import { INBOUND_XML_MAX_BYTES } from '@inv/contracts';
import type { ConformanceKit } from '../support/conformance-kit';
import { inspectXml, type Inspection } from '../support/inspect';
import { extractEmbeddedInvoice } from '../support/pdf-einvoice';
import type { ReceivedDocument } from '../support/receive-body';

/**
 * Reads and validates one received document: XML as it is, a PDF through the e-invoice XML it embeds
 * (ZUGFeRD/Factur-X). The XML limit applies to the embedded file too, decompressed.
 */
export async function checkDocument(kit: ConformanceKit, doc: ReceivedDocument, xmlMaxBytes = INBOUND_XML_MAX_BYTES): Promise<Inspection> {
  if (doc.mediaType === 'application/pdf') {
    const { xml } = await extractEmbeddedInvoice(doc.bytes, xmlMaxBytes);
    return inspectXml(kit, xml, { maxBytes: xmlMaxBytes, fromPdf: true });
  }
  return inspectXml(kit, doc.bytes, { maxBytes: xmlMaxBytes });
}
