import { createHash } from 'node:crypto';
import type { CompanyId } from '@inv/contracts';
import { mapBusEvent, resourceKeyOf, subscribes } from '../domain/event-mapping';
import type { WebhookDeps } from '../support/deps';

/** The webhook event id of a bus event: derived from its envelope id, so a redelivery names the same event. */
export const eventIdOf = (envelopeId: string) => `evt_${createHash('sha256').update(envelopeId).digest('hex').slice(0, 24)}`;

/**
 * A bus event the integrator may want: records the webhook event and one delivery per enabled endpoint that
 * subscribed to its type, in the transaction that records the bus event as processed (at least once, never
 * twice). The resource is read when the first delivery is prepared, not here.
 */
export async function recordEvent(
  deps: WebhookDeps,
  msg: { id: string; type: string; companyId: CompanyId; occurredAt: string; data: unknown },
): Promise<void> {
  const mapped = mapBusEvent(msg.type, msg.data as Record<string, unknown>);
  if (!mapped) return;
  // most companies have no endpoint for most events: a cached read, and no transaction. The list read here (at most
  // a second old) is the one fanned out to: an endpoint created in that second starts with the next event.
  const targets = (await deps.endpoints.enabledCached(msg.companyId)).filter((e) => subscribes(e.eventTypes, mapped.type));
  if (!targets.length) return;
  let queued = false;
  await deps.commitOnce(msg, async (session) => {
    const eventId = eventIdOf(msg.id);
    const now = deps.now();
    const sequence = await deps.events.nextSequence(msg.companyId, resourceKeyOf(mapped.resource), session);
    await deps.events.insert(
      { _id: eventId, companyId: msg.companyId, type: mapped.type, mapped, sequence, occurredAt: new Date(msg.occurredAt) },
      session,
    );
    await deps.deliveries.insertMany(
      targets.map((e) => ({
        companyId: msg.companyId,
        endpointId: e._id,
        eventId,
        eventType: mapped.type,
        status: 'pending' as const,
        attempts: 0,
        nextAttemptAt: now,
        attemptLog: [],
        createdAt: now,
      })),
      session,
    );
    queued = true;
  });
  if (queued) deps.wake(targets.map((e) => e._id));
}
