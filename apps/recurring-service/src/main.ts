// first, so that the OpenTelemetry instrumentations patch mongodb and ioredis before they load
import '@inv/telemetry';
import { runMain } from '@inv/runtime';
import { recurringConfig } from './config';
import { createRecurringService } from './recurring-service';

runMain('recurring-service', recurringConfig, createRecurringService);
