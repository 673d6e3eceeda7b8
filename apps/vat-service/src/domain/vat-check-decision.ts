import { faultMeansInvalidVatId } from './vies-faults';
import type { ViesResult } from './vies-result';

export type VatCheckStatus = 'valid' | 'invalid' | 'unavailable';

export type RetryPolicy = {
  /** Total calls to VIES, the first one included. */
  maxAttempts: number;
  /** Wait before retry n (n = 1, 2, ...): backoffMs[n - 1], the last entry repeating. */
  backoffMs: readonly number[];
  /** Randomises each wait by up to +-ratio so that many workers do not retry in lockstep. */
  jitterRatio: number;
};

/** First call plus 3 retries after about 200 ms, 1 s and 3 s. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 4, backoffMs: [200, 1000, 3000], jitterRatio: 0.2 };

export type NextStep = { action: 'retry'; delayMs: number } | { action: 'done'; status: VatCheckStatus };

/**
 * Status of the VAT ID given the VIES results so far (oldest first). Only a VIES answer or an
 * INVALID_INPUT fault decides valid/invalid; every other fault, transient or not, is `unavailable`:
 * a fault never says the number is invalid.
 */
export function statusFromAttempts(attempts: readonly ViesResult[]): VatCheckStatus {
  const last = attempts.at(-1);
  if (!last) return 'unavailable';
  if (last.kind !== 'fault') return last.kind;
  return faultMeansInvalidVatId(last.fault) ? 'invalid' : 'unavailable';
}

/**
 * Retry a transient fault while attempts remain, otherwise stop with the status.
 * `random01` is a number in [0, 1) (Math.random in production, fixed in tests).
 */
export function nextStep(attempts: readonly ViesResult[], policy: RetryPolicy, random01 = 0.5): NextStep {
  const last = attempts.at(-1);
  if (last && last.kind === 'fault' && last.transient && attempts.length < policy.maxAttempts) {
    return { action: 'retry', delayMs: backoffDelay(policy, attempts.length, random01) };
  }
  return { action: 'done', status: statusFromAttempts(attempts) };
}

/** Wait before retry number `retry` (1-based). */
export function backoffDelay(policy: RetryPolicy, retry: number, random01 = 0.5): number {
  if (policy.backoffMs.length === 0) return 0;
  const index = Math.min(Math.max(retry, 1), policy.backoffMs.length) - 1;
  const base = policy.backoffMs[index] ?? 0;
  const factor = 1 + policy.jitterRatio * (2 * clamp01(random01) - 1);
  return Math.max(0, Math.round(base * factor));
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(Math.max(x, 0), 1) : 0.5;
}

/** Throws on a policy that cannot work, so that a bad configuration fails at start. */
export function assertRetryPolicy(policy: RetryPolicy): RetryPolicy {
  const ok =
    Number.isInteger(policy.maxAttempts) &&
    policy.maxAttempts >= 1 &&
    policy.backoffMs.every((ms) => Number.isFinite(ms) && ms >= 0) &&
    policy.jitterRatio >= 0 &&
    policy.jitterRatio <= 1;
  if (!ok) throw new Error(`invalid VIES retry policy: ${JSON.stringify(policy)}`);
  return policy;
}
