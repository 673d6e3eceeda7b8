import { createHash } from 'node:crypto';
import { INBOUND_XML_MAX_BYTES, type CompanyId } from '@inv/contracts';
import { commandMessage } from '@inv/runtime';
import type { InboundDoc } from '../db/inbound-documents';
import { precheckXml } from '../domain/precheck';
import type { InboundDeps } from '../support/deps';
import type { ReceivedDocument } from '../support/receive-body';

/**
 * POST /inbound/: accepts an e-invoice. What can be refused cheaply is refused at once with a 4xx and nothing is
 * kept (the body's size and type, then for XML the guard and the root element: precheckXml). Then the original goes
 * to the object store and the document, PROCESSING, into MongoDB together with its `inbound.process-document.v1`
 * command (the outbox): a process killed after the answer loses nothing, the command is relayed after the restart.
 * The id is the company's next (counter `inbound:<company>`) and is also the job's id. Reading and validation run in
 * processDocument; what only they find ends the job `failed` (the document REJECTED with the reason).
 */
export async function receiveDocument(deps: InboundDeps, companyId: CompanyId, received: ReceivedDocument): Promise<InboundDoc> {
  if (received.mediaType === 'application/xml') precheckXml(received.bytes, INBOUND_XML_MAX_BYTES);
  const id = await deps.counters.next(`inbound:${companyId}`);
  const ext = received.mediaType === 'application/pdf' ? 'pdf' : 'xml';
  const objectKey = `${companyId}/inbound/${id}/original.${ext}`;
  await deps.objects.put(objectKey, received.bytes, received.mediaType);
  const doc: Omit<InboundDoc, '_id'> = {
    companyId,
    id,
    status: 'PROCESSING',
    valid: false,
    receivedAt: deps.now(),
    filename: received.filename,
    mediaType: received.mediaType,
    size: received.bytes.length,
    sha256: createHash('sha256').update(received.bytes).digest('hex'),
    objectKey,
    attempts: 0,
    ibanDiffers: false,
    summary: { errorCount: 0 },
  };
  // the document the commit stored is the answer: a retry with the same Idempotency-Key whose first attempt committed
  // gets that document (its commit is replayed). The original this attempt stored above under its own id is then an
  // orphan object no document refers to (the id was taken from the counter and is never used again): accepted, one
  // object per such retry, rather than a second document or an upload after the commit that a crash could lose.
  return deps.commit(async (session, emit) => {
    await deps.documents.insert(doc, session);
    emit(commandMessage('inbound.process-document.v1', companyId, { inboundId: id }, `inbound-process:${companyId}:${id}`));
    const stored: InboundDoc = { _id: `${companyId}:${id}`, ...doc };
    return stored;
  });
}
