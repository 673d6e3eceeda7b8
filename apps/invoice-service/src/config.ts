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
  /**
   * Messages a company may send per UTC day: every recipient (to, cc and bcc) of every accepted `send_email` counts
   * one. Beyond it 429 EMAIL_LIMIT_EXCEEDED with Retry-After (the next UTC day).
   */
  EMAIL_DAILY_LIMIT_COMPANY: z.coerce.number().int().min(1).max(10_000_000).default(200),
  /** `send_email` requests accepted per invoice and UTC day (429 EMAIL_LIMIT_EXCEEDED beyond). */
  EMAIL_DAILY_LIMIT_INVOICE: z.coerce.number().int().min(1).max(100_000).default(10),
  /**
   * Whose invoice e-mails may go to any address: `false` (default: only the customer's addresses on the invoice or in
   * its current customer record, and the seller's contact address), `true` (every company) or company ids, comma-separated.
   */
  EMAIL_FREE_RECIPIENTS: z
    .string()
    .trim()
    .regex(/^(|true|false|[A-Za-z0-9_~-]+(,[A-Za-z0-9_~-]+)*)$/, '`true`, `false` or company ids separated by commas')
    .default('false')
    .transform((v): boolean | string[] => (v === 'true' ? true : v === 'false' || v === '' ? false : v.split(','))),
  /**
   * How often the daily reminder run looks whether a company's day is still to do (ms; 0: never, e.g. in tests that
   * run it themselves). A company's run of a UTC day happens once, at the first tick of that day on any replica.
   */
  REMINDER_TICK_MS: z.coerce.number().int().min(0).max(86_400_000).default(3_600_000),
});
export type InvoiceConfig = z.output<typeof invoiceConfig>;
