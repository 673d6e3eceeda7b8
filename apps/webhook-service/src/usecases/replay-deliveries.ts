import type { CompanyId, WebhookReplayResult } from '@inv/contracts';
import type { ClientSession } from 'mongoose';
import { conflict, currentIdempotentRequest } from '@inv/service-kit';
import type { WebhookDeps } from '../support/deps';
import { loadEndpoint } from './load-endpoint';

/**
 * Queues again every failed delivery of the endpoint created since `since` (e.g. after the receiver was fixed): those
 * whose retries ran out. Answers how many it queued and, so that a 0 does not read as "nothing failed", how many
 * deliveries of that time failed an attempt but still wait for their automatic retry (and when the first is tried).
 */
export async function replayDeliveries(deps: WebhookDeps, companyId: CompanyId, endpointId: string, since: Date) {
  const endpoint = await loadEndpoint(deps, companyId, endpointId);
  if (!endpoint.enabled) throw conflict('the endpoint is disabled: enable it first (PUT enabled: true)', 'WEBHOOK_ENDPOINT_DISABLED');
  const requeue = async (session?: ClientSession) => {
    const requeued = (await deps.deliveries.requeueFailedSince(companyId, endpointId, since, deps.now(), session)).modifiedCount;
    const waiting = await deps.deliveries.waitingForRetrySince(companyId, endpointId, since, session);
    return replayAnswer(requeued, waiting.count, waiting.next);
  };
  // with an Idempotency-Key, a commit: a retry whose first attempt committed answers that attempt's count (its commit
  // is replayed) and queues nothing again. Without one, the single write it always was (a month of an endpoint's
  // failed deliveries can be many documents for one transaction).
  const answer = currentIdempotentRequest() ? await deps.commit(requeue) : await requeue();
  deps.wake();
  return answer;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The answer of a replay: the counts and one sentence saying them. */
export function replayAnswer(requeued: number, waiting: number, next: Date | null): WebhookReplayResult {
  const queued =
    requeued === 0 ? 'no failed delivery to queue again' : `${plural(requeued, 'failed delivery', 'failed deliveries')} queued again`;
  const retry =
    waiting === 0
      ? ''
      : `; ${plural(waiting, 'delivery', 'deliveries')} failed an attempt and ${waiting === 1 ? 'waits' : 'wait'} for ${waiting === 1 ? 'its' : 'their'} automatic retry${next ? ` (the next at ${next.toISOString()})` : ''}: retry one now with POST .../deliveries/{delivery_id}/retry`;
  return {
    requeued,
    waiting_for_retry: waiting,
    next_retry_at: waiting > 0 && next ? next.toISOString() : null,
    message: `${queued}${retry}`,
  };
}
