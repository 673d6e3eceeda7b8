import { runMain } from '@inv/runtime';
import { createQuotaService, quotaConfig } from './quota-service';

runMain('quota-service', quotaConfig, createQuotaService);
