import { z } from 'zod';
import { objectStorageEnv } from '@inv/objects';
import { baseEnv } from '@inv/runtime';
import { envVars } from '@inv/service-kit';

export const invoiceConfig = baseEnv.extend({
  PORT: envVars.port(3003),
  DEFAULT_TEMPLATE_ID: z.coerce.number().int().positive().default(1),
  ...objectStorageEnv,
  /** SMTP server of outgoing e-mail, e.g. smtp://user:pass@mail.example.com:587 (required in production). */
  SMTP_URL: z.string().url().optional(),
  /** Sender of invoice e-mails; replies go to the seller's contact address when the invoice has one. */
  MAIL_FROM: z.string().default('Invoicing <invoices@invoicing.localhost>'),
  /**
   * How long a draft this process just wrote is used for the next change of its positions without reading it
   * again (ms; 0: always read). Safe at any value: the write is conditional on the draft being unchanged.
   */
  DRAFT_CACHE_TTL_MS: z.coerce.number().int().min(0).max(600_000).default(30_000),
  /**
   * Longest a copy of a seller profile or a customer's billing data is used (ms; 0: ask account- and
   * customer-service every time). A copy is used only while the owner's change token in Redis is unchanged, so
   * this bounds staleness only when an owner could not reach Redis after a change (libs/service-kit peer-data.ts).
   */
  PEER_DATA_CACHE_TTL_MS: z.coerce.number().int().min(0).max(600_000).default(30_000),
  /** Most copies kept (seller profiles and customers together, least recently used dropped first). */
  PEER_DATA_CACHE_MAX: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
});
export type InvoiceConfig = z.output<typeof invoiceConfig>;
