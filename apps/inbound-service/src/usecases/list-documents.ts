import type { CompanyId, InboundListQuery, InboundSummary } from '@inv/contracts';
import type { InboundDeps } from '../support/deps';
import { toInboundSummary } from '../http/presenters';

export async function listDocuments(
  deps: InboundDeps,
  companyId: CompanyId,
  q: InboundListQuery,
): Promise<{ items: InboundSummary[]; total: number }> {
  const { items, total } = await deps.documents.list(
    companyId,
    { status: q.status, valid: q.valid, sellerVatId: q.seller_vat_id },
    q.page,
    q.limit,
  );
  return { items: items.map(toInboundSummary), total };
}
