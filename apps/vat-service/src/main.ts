import { runMain } from '@inv/runtime';
import { createVatService, vatConfig } from './vat-service';

runMain('vat-service', vatConfig, createVatService);
