import type { CompanyId } from '@inv/contracts';
import { AppError, notFound } from '@inv/service-kit';
import type { InboundDeps } from '../support/deps';
import type { FileLink } from './document-pdf';

/**
 * GET /inbound/{id}/original: the document exactly as the supplier sent it (XML or PDF), as a presigned link that
 * downloads as a file (Content-Disposition: attachment).
 */
export async function originalLink(deps: InboundDeps, companyId: CompanyId, id: number): Promise<FileLink> {
  const doc = await deps.documents.get(companyId, id);
  if (!doc) throw notFound('inbound document');
  const filename = doc.filename ?? `inbound-${id}.${doc.mediaType === 'application/pdf' ? 'pdf' : 'xml'}`;
  return {
    url: await deps.objects.presignGet(doc.objectKey, filename),
    filename,
    contentType: doc.mediaType,
    expiresInSeconds: deps.presignTtlSeconds,
  };
}

/**
 * GET /inbound/{id}/attachments/{n}: an embedded attachment that was decoded and stored when the document was read
 * (content.attachments[n-1].download), as a presigned download. Always Content-Disposition: attachment, and served
 * with a content type that is never active content (what the supplier declared only when it is a type EN 16931
 * allows): nothing a supplier embeds is rendered from the storage origin. 404 ATTACHMENT_NOT_FOUND when there is none.
 */
export async function attachmentLink(deps: InboundDeps, companyId: CompanyId, id: number, n: number): Promise<FileLink> {
  const doc = await deps.documents.get(companyId, id);
  if (!doc) throw notFound('inbound document');
  const file = doc.attachmentFiles?.find((a) => a.n === n);
  if (!file) throw new AppError('not_found', `inbound document ${id} has no stored attachment ${n}`, { code: 'ATTACHMENT_NOT_FOUND' });
  return {
    url: await deps.objects.presignGet(file.key, file.filename),
    filename: file.filename,
    contentType: file.contentType,
    expiresInSeconds: deps.presignTtlSeconds,
  };
}
