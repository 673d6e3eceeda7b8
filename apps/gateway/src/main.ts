// first, so that the OpenTelemetry instrumentations patch mongodb and ioredis before they load
import '@inv/telemetry';
import { runMain } from '@inv/runtime';
import { gatewayConfig } from './config';
import { createGateway } from './gateway';

runMain('gateway', gatewayConfig, createGateway);
