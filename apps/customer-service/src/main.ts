// first, so that the OpenTelemetry instrumentations patch mongodb and ioredis before they load
import '@inv/telemetry';
import { runMain } from '@inv/runtime';
import { createCustomerService, customerConfig } from './customer-service';

runMain('customer-service', customerConfig, createCustomerService);
