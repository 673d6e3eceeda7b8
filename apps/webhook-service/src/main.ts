// first, so that the OpenTelemetry instrumentations patch mongodb and ioredis before they load
import '@inv/telemetry';
import { runMain } from '@inv/runtime';
import { webhookConfig } from './config';
import { createWebhookService } from './webhook-service';

runMain('webhook-service', webhookConfig, createWebhookService);
