// first, so that the OpenTelemetry instrumentations patch mongodb and ioredis before they load
import '@inv/telemetry';
import { runMain } from '@inv/runtime';
import { exportConfig } from './config';
import { createExportService } from './export-service';

runMain('export-service', exportConfig, createExportService);
