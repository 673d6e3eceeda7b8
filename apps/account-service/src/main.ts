// first, so that the OpenTelemetry instrumentations patch mongodb and ioredis before they load
import '@inv/telemetry';
import { runMain } from '@inv/runtime';
import { createAccountService } from './account-service';
import { accountConfig } from './config';

runMain('account-service', accountConfig, createAccountService);
