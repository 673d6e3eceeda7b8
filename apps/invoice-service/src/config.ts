import { z } from 'zod';
import { objectStorageEnv } from '@inv/objects';
import { baseEnv } from '@inv/runtime';
import { envVars } from '@inv/service-kit';

export const invoiceConfig = baseEnv.extend({
  PORT: envVars.port(3003),
  DEFAULT_TEMPLATE_ID: z.coerce.number().int().positive().default(1),
  ...objectStorageEnv,
});
export type InvoiceConfig = z.output<typeof invoiceConfig>;
