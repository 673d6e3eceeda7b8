import { createHash } from 'node:crypto';
import { INBOUND_XML_MAX_BYTES, type CompanyId, type InboundDocument } from '@inv/contracts';
import type { InboundDoc } from '../db/inbound-documents';
import type { InboundDeps } from '../support/deps';
import type { ReceivedDocument } from '../support/receive-body';
import { ibanDiffers, matchSupplier, senderIds } from '../domain/supplier-match';
import { toInboundDocument } from '../support/present';

/**
 * Receives an e-invoice: read and validated first (a document that is no e-invoice at all is refused with a
 * 4xx and nothing is kept), then the original goes to the object store and the reading to MongoDB. The id is
 * the company's next (counter `inbound:<company>`); the answer comes only after both writes, so what was
 * answered 201 is stored.
 */
export async function receiveDocument(deps: InboundDeps, companyId: CompanyId, received: ReceivedDocument): Promise<InboundDocument> {
  const { report, content } = await deps.inspector.check(received, INBOUND_XML_MAX_BYTES);
  const supplier = matchSupplier(await deps.suppliers.candidates(companyId, senderIds(content)), content);
  const sellerVatId = senderIds(content).vatId;
  const duplicateOf = content.number
    ? await deps.documents.firstWithNumber(companyId, { supplierId: supplier?.id, sellerVatId }, content.number)
    : undefined;
  const id = await deps.counters.next(`inbound:${companyId}`);
  const ext = received.mediaType === 'application/pdf' ? 'pdf' : 'xml';
  const objectKey = `${companyId}/inbound/${id}/original.${ext}`;
  await deps.objects.put(objectKey, received.bytes, received.mediaType);
  const doc: Omit<InboundDoc, '_id'> = {
    companyId,
    id,
    status: 'RECEIVED',
    valid: report.valid,
    receivedAt: deps.now(),
    filename: received.filename,
    mediaType: received.mediaType,
    size: received.bytes.length,
    sha256: createHash('sha256').update(received.bytes).digest('hex'),
    objectKey,
    format: report.format,
    profile: report.profile,
    version: report.version,
    customizationId: report.customization_id,
    documentType: report.document_type,
    findings: report.findings,
    content,
    sellerVatId,
    supplierId: supplier?.id,
    duplicateOf,
    ibanDiffers: ibanDiffers(supplier, content),
    summary: {
      number: content.number,
      issueDate: content.issue_date,
      sellerName: content.seller.name,
      payable: content.totals.payable,
      currency: content.currency,
      errorCount: report.findings.filter((f) => f.severity === 'fatal' || f.severity === 'error').length,
    },
  };
  await deps.documents.insert(doc);
  return toInboundDocument(doc);
}
