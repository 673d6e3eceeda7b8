// first, so that the OpenTelemetry instrumentations patch mongodb and ioredis before they load
import '@inv/telemetry';
import { runMain } from '@inv/runtime';
import { inboundConfig } from './config';
import { createInboundService } from './inbound-service';

runMain('inbound-service', inboundConfig, createInboundService);
