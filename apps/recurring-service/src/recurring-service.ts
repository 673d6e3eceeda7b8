import { connectRedis, createCompanyRateLimit, createIdentitySigner, GATEWAY_REDIS_NAMESPACE, resolveIdentityKeys } from '@inv/service-kit';
import { createCounters, createServiceRuntime } from '@inv/runtime';
import type { RecurringConfig } from './config';
import { runStore } from './db/runs';
import { scheduleStore } from './db/schedules';
import { recurringRoutes } from './http/recurring.routes';
import type { RecurringDeps } from './support/deps';
import { invoiceApi } from './support/invoice-api';
import { scheduler } from './workers/scheduler';

export interface RecurringServiceOptions {
  /** The clock of the scheduler (tests move it); default: the system clock. */
  now?: () => Date;
}

/** Recurring invoices: templates on a schedule, each run issued through invoice-service's public API. */
export async function createRecurringService(config: RecurringConfig, options: RecurringServiceOptions = {}) {
  const rt = await createServiceRuntime({ service: 'recurring-service', database: 'invoicing_recurring', port: config.PORT, env: config });
  const schedules = scheduleStore(rt.conn);
  const runs = runStore(rt.conn);
  await Promise.all([schedules.init(), runs.init()]);
  const signer = createIdentitySigner(resolveIdentityKeys(config, rt.logger));
  // the gateway's per-company window (not a readiness check: without Redis the limit holds per replica)
  const redis = connectRedis(config.REDIS_URL, config.REDIS_PREFIX);
  redis.on('error', () => undefined);
  const rateLimit = createCompanyRateLimit(redis, config.RATE_LIMIT_PER_SECOND, {
    keyPrefix: GATEWAY_REDIS_NAMESPACE,
    onRedisError: (err) => rt.logger.warn({ err }, 'rate limit in Redis failed; limiting per replica'),
  });
  const deps: RecurringDeps = {
    schedules,
    runs,
    counters: createCounters(rt.conn),
    commit: rt.commit,
    logger: rt.logger,
    invoiceApi: invoiceApi({ url: config.INVOICE_URL, signer, timeoutMs: config.RECURRING_HTTP_TIMEOUT_MS, rateLimit }),
    now: options.now ?? (() => new Date()),
    leaseMs: config.RECURRING_LEASE_MS,
    jobWaitMs: config.RECURRING_JOB_WAIT_MS,
  };
  const ticker = scheduler(deps, {
    tickMs: config.RECURRING_TICK_MS,
    concurrency: config.RECURRING_CONCURRENCY,
    perSchedule: config.RECURRING_CATCH_UP_PER_TICK,
  });
  rt.app.use(recurringRoutes(deps));

  return {
    runtime: rt,
    deps,
    scheduler: ticker,
    async start() {
      const listening = await rt.start();
      ticker.start();
      return listening;
    },
    async stop() {
      await ticker.stop();
      await rt.stop();
      rateLimit.stop();
      deps.invoiceApi.close();
      redis.disconnect();
    },
  };
}
