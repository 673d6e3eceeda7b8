import type { CompanyId } from '@inv/contracts';
import type { ClientSession } from 'mongoose';
import { conflict, currentIdempotentRequest } from '@inv/service-kit';
import type { WebhookDeps } from '../support/deps';
import { loadEndpoint } from './load-endpoint';

/** Queues again every failed delivery of the endpoint created since `since` (e.g. after the receiver was fixed). */
export async function replayDeliveries(deps: WebhookDeps, companyId: CompanyId, endpointId: string, since: Date) {
  const endpoint = await loadEndpoint(deps, companyId, endpointId);
  if (!endpoint.enabled) throw conflict('the endpoint is disabled: enable it first (PUT enabled: true)', 'WEBHOOK_ENDPOINT_DISABLED');
  const requeue = async (session?: ClientSession) =>
    (await deps.deliveries.requeueFailedSince(companyId, endpointId, since, deps.now(), session)).modifiedCount;
  // with an Idempotency-Key, a commit: a retry whose first attempt committed answers that attempt's count (its commit
  // is replayed) and queues nothing again. Without one, the single write it always was (a month of an endpoint's
  // failed deliveries can be many documents for one transaction).
  const requeued = currentIdempotentRequest() ? await deps.commit(requeue) : await requeue();
  deps.wake();
  return { requeued };
}
