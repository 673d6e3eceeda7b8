// first, so that the OpenTelemetry instrumentations patch mongodb and ioredis before they load
import '@inv/telemetry';
import { runMain } from '@inv/runtime';
import { invoiceConfig } from './config';
import { createInvoiceService } from './invoice-service';

runMain('invoice-service', invoiceConfig, createInvoiceService);
