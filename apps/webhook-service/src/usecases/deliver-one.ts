import type { DeliveryDoc } from '../db/deliveries';
import { nextAttemptAt } from '../domain/retry-schedule';
import type { WebhookDeps } from '../support/deps';
import { disableEndpoint } from '../delivery/disable-endpoint';
import { ResourceUnavailable } from '../delivery/resource-fetcher';
import type { SendResult } from '../delivery/sender';
import { signedHeaders } from '../delivery/signing';
import { payloadFor } from '../delivery/snapshots';

/** When the payload's resource cannot be read now, the delivery is prepared again after this (no attempt counted). */
const PREPARE_RETRY_MS = 5_000;

/**
 * One attempt of a delivery the worker holds (leased as `owner`): prepare its payload (the event's snapshot), sign
 * it (Standard Webhooks) and POST it. 2xx: delivered. 410: failed, and the endpoint is disabled. Anything else
 * (3xx, 4xx, 5xx, timeout, refused connection, refused address): the next attempt by the schedule, or failed
 * when it is used up; an endpoint failing for WEBHOOK_DISABLE_AFTER_MS is disabled. Answers what the POST gave
 * (undefined when none was made), by which the worker judges the endpoint slow or not.
 */
export async function deliverOne(
  deps: WebhookDeps,
  delivery: DeliveryDoc,
  owner: string,
  /** Called as the POST starts (after the payload was prepared) and as it ends: the time between is the receiver's. */
  post: { sending(): void; sent(): void } = { sending: () => undefined, sent: () => undefined },
): Promise<SendResult | undefined> {
  // the cached list first (a read per delivery saved); a miss is checked in the database (created a moment ago elsewhere)
  const endpoint =
    (await deps.endpoints.enabledCached(delivery.companyId)).find((e) => e._id === delivery.endpointId) ??
    (await deps.endpoints.get(delivery.companyId, delivery.endpointId));
  if (!endpoint || !endpoint.enabled) {
    await deps.deliveries.abandonAcrossCompanies(delivery._id, owner);
    return undefined;
  }
  let payload: string | undefined;
  try {
    payload = await payloadFor(deps, delivery.eventId);
  } catch (err) {
    if (!(err instanceof ResourceUnavailable)) throw err;
    deps.logger.warn({ eventId: delivery.eventId, reason: err.message }, 'webhook: resource not readable now; preparing again later');
    await deps.deliveries.releaseAcrossCompanies(delivery._id, owner, new Date(deps.now().getTime() + PREPARE_RETRY_MS));
    return undefined;
  }
  if (payload === undefined) {
    await deps.deliveries.abandonAcrossCompanies(delivery._id, owner);
    return undefined;
  }
  const at = deps.now();
  post.sending();
  const result = await deps.sender.send(endpoint.url, signedHeaders(deps.box, endpoint, delivery.eventId, payload, at), payload);
  post.sent();
  const attempt = {
    at,
    durationMs: result.durationMs,
    ...(result.httpStatus !== undefined ? { httpStatus: result.httpStatus } : {}),
    ...(result.excerpt !== undefined ? { responseExcerpt: result.excerpt } : {}),
    ...(result.error !== undefined ? { error: result.error } : {}),
  };
  const status = result.httpStatus ?? 0;
  if (status >= 200 && status < 300) {
    await deps.deliveries.settleAcrossCompanies(delivery._id, owner, attempt, { status: 'delivered', deliveredAt: deps.now() });
    // the endpoint works again (the cached copy may predate a failure this delivery itself had: its attempts say so)
    if (endpoint.failingSince || delivery.attempts > 0) await deps.endpoints.update(endpoint.companyId, endpoint._id, {}, ['failingSince']);
    return result;
  }
  if (status === 410) {
    await deps.deliveries.settleAcrossCompanies(delivery._id, owner, attempt, { status: 'failed' });
    await disableEndpoint(deps, endpoint, 'gone');
    return result;
  }
  const next = nextAttemptAt(delivery.attempts + 1, deps.now(), deps.schedule);
  await deps.deliveries.settleAcrossCompanies(delivery._id, owner, attempt, next ? { nextAttemptAt: next } : { status: 'failed' });
  if (!endpoint.failingSince) {
    await deps.endpoints.model.updateOne({ _id: endpoint._id, failingSince: { $exists: false } }, { $set: { failingSince: at } });
  } else if (at.getTime() - endpoint.failingSince.getTime() >= deps.disableAfterMs) {
    await disableEndpoint(deps, endpoint, 'failing');
  }
  return result;
}
