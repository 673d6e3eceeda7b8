/** What happens to a message whose handler failed, and how long to wait before reconnecting. Pure. */

export type ParkReason = 'invalid' | 'permanent' | 'exhausted';

export type FailureDecision = { action: 'retry'; delayMs: number; nextAttempt: number } | { action: 'park'; reason: ParkReason };

/**
 * `attempt` is the 1-based attempt that just failed. Attempt n is retried after delays[n-1];
 * once every delay is used (delays.length + 1 attempts in all) the message is parked.
 */
export function decideOnFailure(attempt: number, delays: readonly number[], permanent: boolean): FailureDecision {
  if (permanent) return { action: 'park', reason: 'permanent' };
  const n = Number.isInteger(attempt) && attempt >= 1 ? attempt : 1;
  if (n <= delays.length) return { action: 'retry', delayMs: delays[n - 1], nextAttempt: n + 1 };
  return { action: 'park', reason: 'exhausted' };
}

/** Delay before reconnect attempt `attempt` (1-based): the schedule, then its last value forever. */
export function reconnectDelay(attempt: number, delays: readonly number[]): number {
  if (delays.length === 0) return 0;
  const i = Math.min(Math.max(1, Math.floor(attempt)), delays.length) - 1;
  return delays[i];
}

export function assertDelays(what: string, delays: readonly number[], allowEmpty: boolean): void {
  if (!allowEmpty && delays.length === 0) throw new Error(`bus: ${what} must not be empty`);
  for (const d of delays) {
    if (!Number.isInteger(d) || d <= 0) throw new Error(`bus: ${what} must be positive integers of ms (got ${d})`);
  }
}
