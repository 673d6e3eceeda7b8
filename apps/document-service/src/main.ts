// first, so that the OpenTelemetry instrumentations patch mongodb and ioredis before they load
import '@inv/telemetry';
import { runMain } from '@inv/runtime';
import { documentConfig } from './config';
import { createDocumentService } from './document-service';

runMain('document-service', documentConfig, createDocumentService);
