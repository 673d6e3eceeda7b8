import type { CompanyId } from '@inv/contracts';
import { notFound } from '@inv/service-kit';
import type { InboundDeps } from '../support/deps';

/** Deletes the reading, then the original (a failed object delete leaves an orphan the log names, never a record without its file). */
export async function deleteDocument(deps: InboundDeps, companyId: CompanyId, id: number): Promise<void> {
  const doc = await deps.documents.remove(companyId, id);
  if (!doc) throw notFound('inbound document');
  await deps.objects
    .remove(doc.objectKey)
    .catch((err: unknown) => deps.logger.warn({ err, key: doc.objectKey }, 'original of a deleted inbound document not removed'));
}
