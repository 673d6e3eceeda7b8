import type { DeliveryDoc } from '../db/deliveries';
import type { EndpointDoc } from '../db/endpoints';

const iso = (d: Date | undefined) => (d ? d.toISOString() : null);

export const presentEndpoint = (e: EndpointDoc) => ({
  id: e._id,
  url: e.url,
  event_types: e.eventTypes,
  description: e.description ?? null,
  enabled: e.enabled,
  disabled_reason: e.enabled ? null : (e.disabledReason ?? null),
  created_at: e.createdAt.toISOString(),
  updated_at: e.updatedAt.toISOString(),
  secret_rotated_at: iso(e.secretRotatedAt),
});

export const deliveryIdOf = (d: Pick<DeliveryDoc, '_id'>) => `wd_${d._id.toHexString()}`;

export function presentDelivery(d: DeliveryDoc) {
  const last = d.attemptLog.at(-1);
  return {
    id: deliveryIdOf(d),
    endpoint_id: d.endpointId,
    event_id: d.eventId,
    event_type: d.eventType,
    status: d.status,
    attempts: d.attempts,
    next_attempt_at: d.status === 'pending' ? iso(d.nextAttemptAt) : null,
    last_http_status: last?.httpStatus ?? null,
    last_duration_ms: last?.durationMs ?? null,
    last_response_excerpt: last?.responseExcerpt ?? null,
    last_error: last?.error ?? null,
    attempt_log: d.attemptLog.map((a) => ({
      at: a.at.toISOString(),
      http_status: a.httpStatus ?? null,
      duration_ms: a.durationMs,
      response_excerpt: a.responseExcerpt ?? null,
      error: a.error ?? null,
    })),
    created_at: d.createdAt.toISOString(),
    delivered_at: iso(d.deliveredAt),
  };
}
