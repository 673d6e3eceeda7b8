import { z } from 'zod';
import { baseEnv } from '@inv/runtime';
import { envVars } from '@inv/service-kit';

export const recurringConfig = baseEnv.extend({
  PORT: envVars.port(3010),
  /** invoice-service's HTTP API, called with a signed identity of the company as the gateway would. */
  INVOICE_URL: z.string().url().default('http://127.0.0.1:3003'),
  /** How often the scheduler looks for due runs (it also looks once at start). */
  RECURRING_TICK_MS: z.coerce.number().int().min(50).max(3_600_000).default(60_000),
  /**
   * How long a claimed run stays with its replica before another may resume it (a replica that died mid-run).
   * Renewed at every step; must exceed the longest step (one HTTP call, or one 25 s job poll).
   */
  RECURRING_LEASE_MS: z.coerce.number().int().min(1000).max(3_600_000).default(120_000),
  /** Timeout of one call to invoice-service (a job poll adds its 25 s wait). */
  RECURRING_HTTP_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** How long a run waits for its finalization job before leaving it for the next tick. */
  RECURRING_JOB_WAIT_MS: z.coerce.number().int().min(0).max(3_600_000).default(300_000),
  /**
   * The gateway's per-company limit (requests in any sliding second): the scheduler's calls take their slots from
   * the same window in Redis. Set it to the gateway's value.
   */
  RATE_LIMIT_PER_SECOND: z.coerce.number().int().positive().default(50),
  /** Periods one schedule issues at most per tick; a longer catch-up goes on at the next ticks. */
  RECURRING_CATCH_UP_PER_TICK: z.coerce.number().int().min(1).max(24).default(3),
  /** Schedules worked on at once by one replica. */
  RECURRING_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
});
export type RecurringConfig = z.output<typeof recurringConfig>;
