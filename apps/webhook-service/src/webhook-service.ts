import { createIdentitySigner, resolveIdentityKeys } from '@inv/service-kit';
import { createServiceRuntime } from '@inv/runtime';
import type { WebhookConfig } from './config';
import { onIntegratorEvent } from './consumers/integrator-events';
import { deliveryStore } from './db/deliveries';
import { endpointStore } from './db/endpoints';
import { eventStore } from './db/events';
import { SOURCE_EVENTS } from './domain/event-mapping';
import { RETRY_SCHEDULE_MS } from './domain/retry-schedule';
import { secretBox, secretKeysOf } from './domain/secrets';
import { webhookEndpointRoutes } from './http/webhook-endpoints.routes';
import { systemResolve, type Resolve } from './delivery/address-guard';
import { deliveryWorker } from './workers/delivery-worker';
import type { WebhookDeps } from './support/deps';
import { resourceFetcher } from './delivery/resource-fetcher';
import { createSender } from './delivery/sender';

export interface WebhookServiceOptions {
  /** The DNS resolution of endpoint hosts (tests replace it to play DNS rebinding). */
  resolve?: Resolve;
}

/** Signed webhooks: endpoints, the events pushed to them (Standard Webhooks) and the delivery log. */
export async function createWebhookService(config: WebhookConfig, options: WebhookServiceOptions = {}) {
  const rt = await createServiceRuntime({ service: 'webhook-service', database: 'invoicing_webhook', port: config.PORT, env: config });
  const endpoints = endpointStore(rt.conn);
  const deliveries = deliveryStore(rt.conn);
  const events = eventStore(rt.conn);
  await Promise.all([endpoints.init(), deliveries.init(), events.init()]);
  const resolve = options.resolve ?? systemResolve;
  const sender = createSender({
    allowLoopback: config.allowLoopback,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    resolve,
    maxSockets: config.WEBHOOK_GLOBAL_CONCURRENCY,
  });
  const signer = createIdentitySigner(resolveIdentityKeys(config, rt.logger));
  const fetchResource = resourceFetcher(config, signer);
  let wake: WebhookDeps['wake'] = () => undefined;
  const deps: WebhookDeps = {
    endpoints,
    deliveries,
    events,
    bus: rt.bus,
    commit: rt.commit,
    commitOnce: rt.commitOnce,
    commitAllOnce: rt.commitAllOnce,
    logger: rt.logger,
    box: secretBox(secretKeysOf(config.WEBHOOK_SECRET_KEYS, config.NODE_ENV === 'production')),
    resolve,
    sender,
    fetchResource,
    policy: { httpsOnly: config.httpsOnly, allowLoopback: config.allowLoopback },
    schedule: config.WEBHOOK_RETRY_SCHEDULE_MS ?? RETRY_SCHEDULE_MS,
    disableAfterMs: config.WEBHOOK_DISABLE_AFTER_MS,
    mailFrom: config.MAIL_FROM,
    wake: (endpointIds) => wake(endpointIds),
    reserve: (companyId, endpointIds) => worker.reserve(companyId, endpointIds),
    adopt: (reservation, deliveries) => worker.adopt(reservation, deliveries),
    now: () => new Date(),
  };
  const worker = deliveryWorker(deps, {
    endpointConcurrency: config.WEBHOOK_ENDPOINT_CONCURRENCY,
    companyConcurrency: config.WEBHOOK_COMPANY_CONCURRENCY,
    globalConcurrency: config.WEBHOOK_GLOBAL_CONCURRENCY,
    // an attempt taking a quarter of the timeout or more makes its endpoint slow (a smaller share: domain/fair-share.ts)
    slowMs: Math.floor(config.WEBHOOK_TIMEOUT_MS / 4),
    pollMs: config.WEBHOOK_POLL_MS,
    // an attempt takes at most the timeout; the margin covers preparing the payload and recording the outcome
    leaseMs: config.WEBHOOK_LEASE_MS ?? config.WEBHOOK_TIMEOUT_MS + 30_000,
  });
  wake = worker.wake;

  rt.bus.onEvent('webhook-events', [...SOURCE_EVENTS], onIntegratorEvent(deps));
  rt.app.use(webhookEndpointRoutes(deps));

  return {
    runtime: rt,
    deps,
    worker,
    async start() {
      const listening = await rt.start();
      worker.start();
      return listening;
    },
    async stop() {
      await worker.stop();
      sender.close();
      fetchResource.close();
      await rt.stop();
    },
  };
}
