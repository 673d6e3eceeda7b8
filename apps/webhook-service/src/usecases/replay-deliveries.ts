import type { CompanyId } from '@inv/contracts';
import { conflict } from '@inv/service-kit';
import type { WebhookDeps } from '../support/deps';
import { loadEndpoint } from './load-endpoint';

/** Queues again every failed delivery of the endpoint created since `since` (e.g. after the receiver was fixed). */
export async function replayDeliveries(deps: WebhookDeps, companyId: CompanyId, endpointId: string, since: Date) {
  const endpoint = await loadEndpoint(deps, companyId, endpointId);
  if (!endpoint.enabled) throw conflict('the endpoint is disabled: enable it first (PUT enabled: true)', 'WEBHOOK_ENDPOINT_DISABLED');
  const res = await deps.deliveries.requeueFailedSince(companyId, endpointId, since, deps.now());
  deps.wake();
  return { requeued: res.modifiedCount };
}
