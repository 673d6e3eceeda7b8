import { z } from 'zod';

/**
 * Response bodies of the public API, as the services present them. The OpenAPI document is generated from
 * these (apps/gateway/src/openapi); the services' presenters are typed independently, and the e2e suite and
 * the OpenAPI tests check that the shapes hold.
 */

export const MessageBody = z.object({ message: z.string() }).meta({ id: 'Message' });
export const CreatedCustomer = z
  .object({ message: z.string(), id: z.number().int() })
  .meta({ id: 'CreatedCustomer', example: { message: 'customer created', id: 1 } });
export const CreatedInvoice = z
  .object({ message: z.string(), invoice_id: z.number().int() })
  .meta({ id: 'CreatedInvoice', example: { message: 'invoice created', invoice_id: 42 } });
export const CreatedJob = z
  .object({ message: z.string(), job_id: z.string() })
  .meta({ id: 'CreatedJob', example: { message: 'finalization job queued', job_id: '0b6f6d1e-7c7e-4b8e-9a55-2f1f1c7f9a10' } });

export * from './customer-responses';
export * from './invoice-responses';
export * from './account-responses';
export * from './export-responses';
