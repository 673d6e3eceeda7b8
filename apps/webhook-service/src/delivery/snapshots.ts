import { WEBHOOK_API_VERSION } from '@inv/contracts';
import { payloadData } from '../domain/event-mapping';
import type { EventDoc } from '../db/events';
import type { WebhookDeps } from '../support/deps';

/** The payload as sent: envelope fields first, then `data`. */
export const payloadOf = (e: Pick<EventDoc, '_id' | 'type' | 'occurredAt' | 'sequence'>, data: unknown) =>
  JSON.stringify({
    id: e._id,
    type: e.type,
    api_version: WEBHOOK_API_VERSION,
    created_at: e.occurredAt.toISOString(),
    sequence: e.sequence,
    data,
  });

/** Payloads (or their preparation in progress) kept in memory per service instance, the newest this many. */
const PAYLOADS_KEPT = 1000;
const prepared = new WeakMap<WebhookDeps, Map<string, Promise<string | undefined>>>();

/**
 * The payload of an event: the stored snapshot, or, for its first delivery, the resource read from its owner now,
 * stored once (the first writer wins), so every endpoint and every retry send the same bytes. Throws
 * ResourceUnavailable when the owner cannot answer now.
 *
 * An event's deliveries to its endpoints are claimed together: they share one preparation (one read of the event
 * and one GET at the owner, not one per endpoint), and a prepared payload is kept, since it never changes.
 */
export function payloadFor(deps: WebhookDeps, eventId: string): Promise<string | undefined> {
  let kept = prepared.get(deps);
  if (!kept) prepared.set(deps, (kept = new Map()));
  const hit = kept.get(eventId);
  if (hit) return hit;
  const cache = kept;
  const payload = preparePayload(deps, eventId);
  cache.set(eventId, payload);
  if (cache.size > PAYLOADS_KEPT) cache.delete(cache.keys().next().value!);
  // a failed preparation (owner down) or an event without a payload is tried afresh next time
  payload.then(
    (p) => void (p === undefined && cache.delete(eventId)),
    () => void cache.delete(eventId),
  );
  return payload;
}

async function preparePayload(deps: WebhookDeps, eventId: string): Promise<string | undefined> {
  const event = await deps.events.getAcrossCompanies(eventId);
  if (!event) return undefined;
  if (event.payload) return event.payload;
  if (!event.mapped) return undefined;
  const resource = await deps.fetchResource(event.companyId, event.mapped.resource);
  return deps.events.snapshotAcrossCompanies(eventId, payloadOf(event, payloadData(event.mapped, resource)));
}
