import { Types } from 'mongoose';
import type { CompanyId, WebhookDeliveryQuery } from '@inv/contracts';
import type { WebhookDeps } from '../support/deps';
import { presentDelivery } from '../http/presenters';
import { loadEndpoint } from './load-endpoint';

/** The endpoint's delivery log, newest first, a page at a time (`next_cursor`). */
export async function listDeliveries(deps: WebhookDeps, companyId: CompanyId, endpointId: string, q: WebhookDeliveryQuery) {
  await loadEndpoint(deps, companyId, endpointId);
  const rows = await deps.deliveries.page(companyId, endpointId, {
    status: q.status,
    before: q.cursor ? new Types.ObjectId(q.cursor) : undefined,
    limit: q.limit,
  });
  const page = rows.slice(0, q.limit);
  return { deliveries: page.map(presentDelivery), next_cursor: rows.length > q.limit ? page.at(-1)!._id.toHexString() : null };
}
