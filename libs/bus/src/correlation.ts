import { AsyncLocalStorage } from 'node:async_hooks';

// The correlation id of the message being handled, so that whatever a handler publishes carries it on
// without every handler threading it through by hand.
const store = new AsyncLocalStorage<string>();

/** Correlation id of the message whose handler is running (undefined outside handlers). */
export function currentCorrelationId(): string | undefined {
  return store.getStore();
}

export function runWithCorrelation<T>(correlationId: string | undefined, fn: () => T): T {
  return correlationId ? store.run(correlationId, fn) : fn();
}
