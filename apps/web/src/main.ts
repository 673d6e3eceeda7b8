// first, so that the OpenTelemetry instrumentations patch ioredis before it loads
import '@inv/telemetry';
import { runMain } from '@inv/runtime';
import { webConfig } from './config';
import { createWebApp } from './web-app';

runMain('web', webConfig, createWebApp);
