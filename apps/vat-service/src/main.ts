// first, so that the OpenTelemetry instrumentations patch mongodb and ioredis before they load
import '@inv/telemetry';
import { runMain } from '@inv/runtime';
import { createVatService, vatConfig } from './vat-service';

runMain('vat-service', vatConfig, createVatService);
