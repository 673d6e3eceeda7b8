import type { CompanyId, InboundDocument } from '@inv/contracts';
import { notFound } from '@inv/service-kit';
import type { InboundDeps } from '../support/deps';
import { toInboundDocument } from '../http/presenters';

export async function getDocument(deps: InboundDeps, companyId: CompanyId, id: number): Promise<InboundDocument> {
  const doc = await deps.documents.get(companyId, id);
  if (!doc) throw notFound('inbound document');
  return toInboundDocument(doc);
}
