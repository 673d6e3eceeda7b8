import { AsyncLocalStorage } from 'node:async_hooks';
import type { Actor } from './types';

// The correlation id and the actor of the message being handled, so that whatever a handler publishes carries
// them on without every handler threading them through by hand: a finalization requested by a key is still
// that key's when document-service's answer makes invoice-service announce it, three messages later.
interface Handling {
  correlationId?: string;
  actor?: Actor;
}
const store = new AsyncLocalStorage<Handling>();

/** Correlation id of the message whose handler is running (undefined outside handlers). */
export function currentCorrelationId(): string | undefined {
  return store.getStore()?.correlationId;
}

/** Who caused the message whose handler is running (its envelope's actor), if anyone. */
export function currentMessageActor(): Actor | undefined {
  return store.getStore()?.actor;
}

export function runWithCorrelation<T>(correlationId: string | undefined, fn: () => T, actor?: Actor): T {
  return correlationId || actor ? store.run({ correlationId, actor }, fn) : fn();
}
