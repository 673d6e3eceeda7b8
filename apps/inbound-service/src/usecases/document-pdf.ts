import type { CompanyId, InboundPdfQuery } from '@inv/contracts';
import { AppError, conflict, notFound } from '@inv/service-kit';
import type { InboundDeps } from '../support/deps';

/** Where the rendered view of a received XML is kept (a cache: rendered once per document and language). */
export const viewKey = (companyId: CompanyId, id: number, language: 'de' | 'en') => `${companyId}/inbound/${id}/view-${language}.pdf`;

/** A presigned link to a file and how long it works (http/presenters.ts shapes it). */
export interface FileLink {
  url: string;
  filename: string;
  /** Served with this type (the original's, or an attachment's when it is safe); absent for the PDF view. */
  contentType?: string;
  expiresInSeconds: number;
}

/**
 * GET /inbound/{id}/pdf: a human-readable view as a presigned link. A ZUGFeRD/Factur-X PDF is its own view: the
 * original as the supplier sent it. An XML e-invoice (XRechnung has no visual) is rendered by document-service from
 * our reading (RPC `document.render-received.v1`, in German or English), stored beside the original and reused.
 */
export async function documentPdf(deps: InboundDeps, companyId: CompanyId, id: number, q: InboundPdfQuery): Promise<FileLink> {
  const doc = await deps.documents.get(companyId, id);
  if (!doc) throw notFound('inbound document');
  const link = async (key: string, filename: string): Promise<FileLink> => ({
    url: await deps.objects.presignGet(key, filename),
    filename,
    expiresInSeconds: deps.presignTtlSeconds,
  });
  if (doc.mediaType === 'application/pdf') return link(doc.objectKey, doc.filename ?? `inbound-${id}.pdf`);
  if (doc.status === 'PROCESSING')
    throw conflict('the document is still being read; wait for its job (GET /inbound/{id}/job?wait=25)', 'DOCUMENT_PROCESSING');
  if (doc.status !== 'RECEIVED' || !doc.content)
    throw new AppError('unprocessable', 'the document could not be read as an e-invoice, so it has no view; see its error', {
      code: 'DOCUMENT_NOT_READABLE',
    });
  const safeNumber = (doc.content.number ?? String(id)).replace(/[^\w.-]+/g, '_').slice(0, 60);
  const filename = `${q.language === 'de' ? 'eingangsrechnung' : 'received-invoice'}-${safeNumber}.pdf`;
  const key = viewKey(companyId, id, q.language);
  if (await deps.objects.exists(key)) return link(key, filename);
  await deps.bus
    .callRpc('document.render-received.v1', companyId, {
      key,
      language: q.language,
      inboundId: id,
      format: doc.format ?? 'unknown',
      profile: doc.profile,
      valid: doc.valid,
      receivedAt: doc.receivedAt.toISOString(),
      documentType: doc.documentType,
      content: doc.content,
    })
    .catch((err: unknown) => {
      deps.logger.warn({ err, inboundId: id }, 'the view of a received document was not rendered');
      throw new AppError('unavailable', 'the PDF view could not be rendered now; retry later', { code: 'RENDER_UNAVAILABLE' });
    });
  return link(key, filename);
}
