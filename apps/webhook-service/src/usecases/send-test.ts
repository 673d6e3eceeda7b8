import { randomBytes } from 'node:crypto';
import type { CompanyId } from '@inv/contracts';
import { conflict } from '@inv/service-kit';
import type { WebhookDeps } from '../support/deps';
import { deliveryIdOf } from '../support/present';
import { payloadOf } from '../support/snapshots';
import { loadEndpoint } from './load-endpoint';

/** Queues a `ping` to the endpoint (delivered like any event: signed, retried, logged). */
export async function sendTest(deps: WebhookDeps, companyId: CompanyId, endpointId: string) {
  const endpoint = await loadEndpoint(deps, companyId, endpointId);
  if (!endpoint.enabled) throw conflict('the endpoint is disabled: enable it first (PUT enabled: true)', 'WEBHOOK_ENDPOINT_DISABLED');
  const now = deps.now();
  const eventId = `evt_${randomBytes(12).toString('hex')}`;
  const event = { _id: eventId, companyId, type: 'ping', sequence: 1, occurredAt: now };
  const [delivery] = await deps.commit(async (session) => {
    await deps.events.insert({ ...event, payload: payloadOf(event, { endpoint_id: endpointId }) }, session);
    return deps.deliveries.insertMany(
      [
        {
          companyId,
          endpointId,
          eventId,
          eventType: 'ping',
          status: 'pending',
          attempts: 0,
          nextAttemptAt: now,
          attemptLog: [],
          createdAt: now,
        },
      ],
      session,
    );
  });
  deps.wake();
  return { delivery_id: deliveryIdOf(delivery!), event_id: eventId };
}
