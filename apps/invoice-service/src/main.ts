import { runMain } from '@inv/runtime';
import { invoiceConfig } from './config';
import { createInvoiceService } from './invoice-service';

runMain('invoice-service', invoiceConfig, createInvoiceService);
