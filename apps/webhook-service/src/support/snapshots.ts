import { WEBHOOK_API_VERSION } from '@inv/contracts';
import { payloadData } from '../domain/event-mapping';
import type { EventDoc } from '../db/events';
import type { WebhookDeps } from './deps';

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

/**
 * The payload of an event: the stored snapshot, or, for its first delivery, the resource read from its owner now,
 * stored once (the first writer wins), so every endpoint and every retry send the same bytes. Throws
 * ResourceUnavailable when the owner cannot answer now.
 */
export async function payloadFor(deps: WebhookDeps, eventId: string): Promise<string | undefined> {
  const event = await deps.events.get(eventId);
  if (!event) return undefined;
  if (event.payload) return event.payload;
  if (!event.mapped) return undefined;
  const resource = await deps.fetchResource(event.companyId, event.mapped.resource);
  return deps.events.snapshot(eventId, payloadOf(event, payloadData(event.mapped, resource)));
}
