import type { HandlerOf } from '@inv/runtime';
import type { SourceEvent } from '../domain/event-mapping';
import type { WebhookDeps } from '../support/deps';
import { eventRecorder } from '../usecases/record-event';

/**
 * Every bus event an integrator may get as a webhook (domain/event-mapping.ts SOURCE_EVENTS), on one queue: the
 * mapping to a webhook type is the same pure step for all of them, and one queue keeps their order per publisher.
 */
export const onIntegratorEvent = (deps: WebhookDeps): HandlerOf<SourceEvent> => {
  const record = eventRecorder(deps);
  return (msg) => record(msg);
};
