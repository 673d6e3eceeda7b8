import { runMain } from '@inv/runtime';
import { quotaConfig } from './config';
import { createQuotaService } from './quota-service';

runMain('quota-service', quotaConfig, createQuotaService);
