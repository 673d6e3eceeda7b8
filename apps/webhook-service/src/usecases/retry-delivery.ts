import { Types } from 'mongoose';
import type { CompanyId } from '@inv/contracts';
import { conflict, notFound } from '@inv/service-kit';
import type { WebhookDeps } from '../support/deps';
import { loadEndpoint } from './load-endpoint';

/** Sends a delivered or failed delivery again now (same event id, same payload); a pending one is already on its way (409). */
export async function retryDelivery(deps: WebhookDeps, companyId: CompanyId, endpointId: string, deliveryId: string) {
  const endpoint = await loadEndpoint(deps, companyId, endpointId);
  const m = /^wd_([0-9a-f]{24})$/.exec(deliveryId);
  const delivery = m ? await deps.deliveries.get(companyId, endpointId, new Types.ObjectId(m[1])) : null;
  if (!delivery) throw notFound(`delivery ${deliveryId}`);
  if (!endpoint.enabled) throw conflict('the endpoint is disabled: enable it first (PUT enabled: true)', 'WEBHOOK_ENDPOINT_DISABLED');
  if (delivery.status === 'pending') throw conflict('the delivery is pending already', 'DELIVERY_PENDING');
  await deps.deliveries.requeue(companyId, endpointId, delivery._id, deps.now());
  deps.wake();
}
