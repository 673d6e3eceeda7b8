import { randomBytes } from 'node:crypto';
import type { CompanyId } from '@inv/contracts';
import { conflict } from '@inv/service-kit';
import type { WebhookDeps } from '../support/deps';
import { deliveryIdOf } from '../http/presenters';
import { payloadOf } from '../delivery/snapshots';
import { loadEndpoint } from './load-endpoint';

/** Queues a `ping` to the endpoint (delivered like any event: signed, retried, logged). */
export async function sendTest(deps: WebhookDeps, companyId: CompanyId, endpointId: string) {
  const endpoint = await loadEndpoint(deps, companyId, endpointId);
  if (!endpoint.enabled) throw conflict('the endpoint is disabled: enable it first (PUT enabled: true)', 'WEBHOOK_ENDPOINT_DISABLED');
  const now = deps.now();
  // the ids the commit stored are the answer: a retry with the same Idempotency-Key whose first attempt committed
  // gets that ping's delivery (its commit is replayed), never a second ping
  const queued = await deps.commit(async (session) => {
    const eventId = `evt_${randomBytes(12).toString('hex')}`;
    const event = { _id: eventId, companyId, type: 'ping', sequence: 1, occurredAt: now };
    await deps.events.insert({ ...event, payload: payloadOf(event, { endpoint_id: endpointId }) }, session);
    const [delivery] = await deps.deliveries.insertMany(
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
    return { delivery_id: deliveryIdOf(delivery!), event_id: eventId };
  });
  deps.wake();
  return queued;
}
