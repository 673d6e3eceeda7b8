import type { CompanyId } from '@inv/contracts';
import { conflict, notFound } from '@inv/service-kit';
import type { DownloadLink } from '../../platform';
import type { InvoicesDeps } from '../deps';
import { loadInvoice } from './load-invoice';

/** A presigned link to the finalized invoice's PDF or e-invoice XML. */
export async function documentLink(deps: InvoicesDeps, companyId: CompanyId, id: number, kind: 'pdf' | 'xml'): Promise<DownloadLink> {
  const inv = await loadInvoice(deps, companyId, id);
  const file = kind === 'pdf' ? inv.pdf : inv.xml;
  if (!file) {
    if (inv.status === 'DRAFT' || inv.status === 'CANCELLED')
      throw conflict(
        `invoice ${id} is ${inv.status}; documents exist once it is finalized (use /preview for a draft)`,
        'INVOICE_NOT_FINALIZED',
      );
    throw notFound(`${kind.toUpperCase()} of invoice ${id} (format ${inv.format} has no ${kind.toUpperCase()})`);
  }
  const { url, expiresInSeconds } = await deps.bus.callRpc('document.presign.v1', companyId, { key: file.key, filename: file.filename });
  return { url, filename: file.filename, expiresIn: expiresInSeconds };
}
