import { Types } from 'mongoose';
import type { CompanyId } from '@inv/contracts';
import { conflict, notFound } from '@inv/service-kit';
import type { WebhookDeps } from '../support/deps';
import { loadEndpoint } from './load-endpoint';

/**
 * Sends a delivery again now (same event id, same payload): a delivered or failed one starts a new round of the
 * schedule, a pending one waiting for its next attempt is tried at once; one with an attempt in flight is 409.
 */
export async function retryDelivery(deps: WebhookDeps, companyId: CompanyId, endpointId: string, deliveryId: string) {
  const endpoint = await loadEndpoint(deps, companyId, endpointId);
  const m = /^wd_([0-9a-f]{24})$/.exec(deliveryId);
  const delivery = m ? await deps.deliveries.get(companyId, endpointId, new Types.ObjectId(m[1])) : null;
  if (!delivery) throw notFound(`delivery ${deliveryId}`);
  if (!endpoint.enabled) throw conflict('the endpoint is disabled: enable it first (PUT enabled: true)', 'WEBHOOK_ENDPOINT_DISABLED');
  // a commit, so that a retry with the same Idempotency-Key whose first attempt committed is replayed (it sends
  // nothing again, nor finds its own pending attempt in flight)
  await deps.commit(async (session) => {
    if (delivery.status === 'pending') {
      if (!(await deps.deliveries.sendPendingNow(companyId, endpointId, delivery._id, deps.now(), session)))
        throw conflict('an attempt of this delivery is in flight; its outcome is in the log shortly', 'DELIVERY_PENDING');
    } else await deps.deliveries.requeue(companyId, endpointId, delivery._id, deps.now(), session);
  });
  deps.wake();
}
