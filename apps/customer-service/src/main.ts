import { runMain } from '@inv/runtime';
import { createCustomerService, customerConfig } from './customer-service';

runMain('customer-service', customerConfig, createCustomerService);
