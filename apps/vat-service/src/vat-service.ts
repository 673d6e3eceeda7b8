import { setTimeout as sleep } from 'node:timers/promises';
import { createServiceRuntime } from '@inv/runtime';
import { createVatCache } from './cache/vat-cache';
import { onVatIdChanged } from './consumers/vat-id-changed';
import { testModeCheckDeps } from './vies/test-mode-client';
import { assertRetryPolicy } from './domain/vat-check-decision';
import { createViesClient } from './vies/vies-client';
import type { VatConfig } from './config';

export { vatConfig, type VatConfig } from './config';

/** A development stand-in for VIES (the simulator of libs/vies-simulator), given by the launcher and tests, never by production code. */
export interface ViesStandIn {
  url: string;
  stop(): Promise<void>;
}

export interface VatServiceOptions {
  /** Started when VIES_URL is unset; without it an unset VIES_URL stops the service. */
  viesStandIn?: () => Promise<ViesStandIn>;
}

/** EU VAT ID checks against VIES (SOAP), cached in Redis, triggered by customer events. */
export async function createVatService(config: VatConfig, options: VatServiceOptions = {}) {
  const standIn = config.VIES_URL ? undefined : options.viesStandIn;
  if (!config.VIES_URL && !standIn)
    throw new Error('VIES_URL is unset: set it (npm start and the tests start the VIES simulator and pass its URL)');
  const rt = await createServiceRuntime({
    service: 'vat-service',
    database: undefined,
    port: config.PORT,
    env: config,
    useRedis: true,
  });
  const simulator = standIn ? await standIn() : undefined;
  const viesUrl = simulator?.url ?? config.VIES_URL ?? '';
  if (simulator) {
    rt.logger.warn(
      { viesUrl },
      '!!! VIES_URL is unset: VAT IDs are checked against the local VIES SIMULATOR. Answers are SIMULATED, not real VIES answers. Set VIES_URL in production !!!',
    );
  }
  if (!rt.redis) throw new Error('vat-service needs Redis');
  const check = {
    client: createViesClient({ url: viesUrl, timeoutMs: config.VIES_TIMEOUT_MS }),
    // The Redis client already prefixes every key with REDIS_PREFIX.
    cache: createVatCache({
      redis: rt.redis,
      answerTtlSeconds: config.VAT_CACHE_TTL_SECONDS,
      unavailableTtlSeconds: config.VAT_UNAVAILABLE_TTL_SECONDS,
    }),
    sleep: (ms: number) => sleep(ms),
    now: () => new Date(),
    retryPolicy: assertRetryPolicy({ maxAttempts: config.VIES_MAX_ATTEMPTS, backoffMs: config.VIES_BACKOFF_MS, jitterRatio: 0.2 }),
    onCacheError: (error: unknown) => rt.logger.warn({ err: error }, 'VAT cache unavailable; asking VIES directly'),
  };
  const deps = { bus: rt.bus, check, requester: config.REQUESTER_VAT_ID, testCheck: testModeCheckDeps() };

  // Customers' VAT IDs and the company's own take the same path (the verdict for the company has no customerId).
  rt.bus.onEvent('vat-checks', ['customer.vat-id-changed.v1', 'company.vat-id-changed.v1'], (msg) => onVatIdChanged(deps, msg));

  return {
    runtime: rt,
    simulator,
    start: () => rt.start(),
    async stop() {
      await rt.stop();
      await simulator?.stop();
    },
  };
}
