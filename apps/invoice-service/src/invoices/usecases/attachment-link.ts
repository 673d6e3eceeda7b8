import type { CompanyId } from '@inv/contracts';
import { notFound } from '@inv/service-kit';
import type { DownloadLink } from '../../platform';
import type { InvoicesDeps } from '../deps';

/** A short-lived download link of an invoice's attachment. */
export async function attachmentLink(deps: InvoicesDeps, companyId: CompanyId, invoiceId: number, id: number): Promise<DownloadLink> {
  const a = await deps.attachments.get(companyId, invoiceId, id);
  if (!a) throw notFound(`attachment ${id} of invoice ${invoiceId}`);
  return {
    url: await deps.objects.presignGet(a.key, a.filename),
    filename: a.filename,
    contentType: a.contentType,
    expiresIn: deps.presignTtlSeconds,
  };
}
