import type { CompanyId } from '@inv/contracts';
import { eventMessage } from '@inv/runtime';
import { notFound } from '@inv/service-kit';
import type { InboundDeps } from '../support/deps';
import { viewKey } from './document-pdf';

/**
 * Deletes the reading and announces it (`inbound.deleted.v1`, in the same transaction), then the original, the
 * rendered views and the stored attachments (a failed object delete leaves an orphan the log names, never a record without its file). A document
 * still PROCESSING can be deleted: its job then finds nothing and ends without a trace.
 */
export async function deleteDocument(deps: InboundDeps, companyId: CompanyId, id: number): Promise<void> {
  const doc = await deps.commit(async (session, emit) => {
    const removed = await deps.documents.remove(companyId, id, session);
    if (removed) emit(eventMessage('inbound.deleted.v1', companyId, { inboundId: id }, `inbound-deleted:${companyId}:${id}`));
    return removed;
  });
  if (!doc) throw notFound('inbound document');
  await removeObjects(deps, [
    doc.objectKey,
    viewKey(companyId, id, 'de'),
    viewKey(companyId, id, 'en'),
    ...(doc.attachmentFiles ?? []).map((a) => a.key),
  ]);
}

export async function removeObjects(deps: InboundDeps, keys: string[]): Promise<void> {
  for (const key of keys)
    await deps.objects
      .remove(key)
      .catch((err: unknown) => deps.logger.warn({ err, key }, 'a file of a deleted inbound document not removed'));
}
