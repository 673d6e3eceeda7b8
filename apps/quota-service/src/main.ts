// first, so that the OpenTelemetry instrumentations patch mongodb and ioredis before they load
import '@inv/telemetry';
import { runMain } from '@inv/runtime';
import { quotaConfig } from './config';
import { createQuotaService } from './quota-service';

runMain('quota-service', quotaConfig, createQuotaService);
