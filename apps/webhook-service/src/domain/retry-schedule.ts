/**
 * When a failed delivery is tried again: the delay after the n-th failed attempt (index 0 = after the first).
 * Immediately, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h: about 3 days in all (76.6 h),
 * the window the Standard Webhooks guidance suggests, so a receiver down over a weekend still gets its events.
 * Each delay is spread ±20 % (jitter) so deliveries that failed together do not come back together.
 */
export const RETRY_SCHEDULE_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3600_000,
  5 * 3600_000,
  10 * 3600_000,
  14 * 3600_000,
  20 * 3600_000,
  24 * 3600_000,
] as const;

export const JITTER = 0.2;

/**
 * The time of the next attempt after `failedAttempts` failed ones, or undefined when the schedule is used up
 * (the delivery fails for good). `random` in [0, 1) picks the jitter.
 */
export function nextAttemptAt(
  failedAttempts: number,
  now: Date,
  schedule: readonly number[] = RETRY_SCHEDULE_MS,
  random: number = Math.random(),
): Date | undefined {
  const base = schedule[failedAttempts - 1];
  if (base === undefined) return undefined;
  const factor = 1 + JITTER * (2 * random - 1);
  return new Date(now.getTime() + Math.round(base * factor));
}
