// first, so that the OpenTelemetry instrumentations patch mongodb and ioredis before they load
import '@inv/telemetry';
import { setPriority } from 'node:os';
import { runMain } from '@inv/runtime';
import { webhookConfig, type WebhookConfig } from './config';
import { createWebhookService } from './webhook-service';

runMain('webhook-service', webhookConfig, (config: WebhookConfig) => {
  // background work: the services a client waits on come first on shared cores (raising niceness needs no privilege)
  if (config.WEBHOOK_NICE > 0) {
    try {
      setPriority(config.WEBHOOK_NICE);
    } catch {
      // not allowed here (a sandbox): runs at the priority it was started with
    }
  }
  return createWebhookService(config);
});
