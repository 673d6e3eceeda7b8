import { runMain } from '@inv/runtime';
import { createInvoiceService, invoiceConfig } from './invoice-service';

runMain('invoice-service', invoiceConfig, createInvoiceService);
