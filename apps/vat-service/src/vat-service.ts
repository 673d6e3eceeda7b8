import { setTimeout as sleep } from 'node:timers/promises';
import { createServiceRuntime } from '@inv/runtime';
import { startViesSimulator, type ViesSimulator } from '@inv/vies-simulator';
import { createVatCache } from './cache/vat-cache';
import { onVatIdChanged } from './consumers/vat-id-changed';
import { assertRetryPolicy } from './domain/vat-check-decision';
import { createViesClient } from './vies/vies-client';
import type { VatConfig } from './config';

export { vatConfig, type VatConfig } from './config';

/** EU VAT ID checks against VIES (SOAP), cached in Redis, triggered by customer events. */
export async function createVatService(config: VatConfig) {
  const rt = await createServiceRuntime({ service: 'vat-service', database: 'invoicing_vat', port: config.PORT, env: config, useRedis: true });
  let simulator: ViesSimulator | undefined;
  let viesUrl = config.VIES_URL;
  if (!viesUrl) {
    simulator = await startViesSimulator();
    viesUrl = simulator.url;
    rt.logger.warn(
      { viesUrl },
      '!!! VIES_URL is unset: VAT IDs are checked against the local VIES SIMULATOR. Answers are SIMULATED, not real VIES answers. Set VIES_URL in production !!!',
    );
  }
  if (!rt.redis) throw new Error('vat-service needs Redis');
  const check = {
    client: createViesClient({ url: viesUrl, timeoutMs: config.VIES_TIMEOUT_MS }),
    // The Redis client already prefixes every key with REDIS_PREFIX.
    cache: createVatCache({ redis: rt.redis, answerTtlSeconds: config.VAT_CACHE_TTL_SECONDS, unavailableTtlSeconds: config.VAT_UNAVAILABLE_TTL_SECONDS }),
    sleep: (ms: number) => sleep(ms),
    now: () => new Date(),
    retryPolicy: assertRetryPolicy({ maxAttempts: config.VIES_MAX_ATTEMPTS, backoffMs: config.VIES_BACKOFF_MS, jitterRatio: 0.2 }),
    onCacheError: (error: unknown) => rt.logger.warn({ err: error }, 'VAT cache unavailable; asking VIES directly'),
  };
  const deps = { bus: rt.bus, check, requester: config.REQUESTER_VAT_ID };

  // Customers' VAT IDs and the company's own take the same path (the verdict for the company has no customerId).
  rt.bus.onEvent('vat-checks', ['customer.vat-id-changed.v1', 'company.vat-id-changed.v1'], (msg) => onVatIdChanged(deps, msg as never));

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
