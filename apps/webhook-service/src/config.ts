import { z } from 'zod';
import { baseEnv } from '@inv/runtime';
import { envVars } from '@inv/service-kit';

const url = (port: number) => z.string().url().default(`http://127.0.0.1:${port}`);

export const webhookConfig = baseEnv
  .extend({
    PORT: envVars.port(3008),
    /** The owning services whose public GET presents the resource an event is about (read with a signed identity). */
    INVOICE_URL: url(3003),
    CUSTOMER_URL: url(3002),
    EXPORT_URL: url(3006),
    QUOTA_URL: url(3007),
    INBOUND_URL: url(3009),
    RECURRING_URL: url(3010),
    /**
     * Key that encrypts the endpoints' signing secrets at rest (AES-256-GCM): 32 bytes as base64 or 64 hex
     * characters, comma-separated for rotation (the first encrypts, all decrypt). Required in production; outside
     * it a fixed development key is used.
     */
    WEBHOOK_SECRET_KEYS: z.string().optional(),
    /**
     * Allow endpoints on loopback addresses (127.0.0.0/8, ::1) for local runs and tests. Defaults to true outside
     * production, false in production (set by the refinement below).
     */
    WEBHOOKS_ALLOW_LOOPBACK: z.enum(['true', 'false', '1', '0']).optional(),
    /** Deliveries in flight at once per endpoint, per company and in all (one process: per replica). */
    WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
    /**
     * Per company; at most half of WEBHOOK_GLOBAL_CONCURRENCY is used. A company's endpoints that time out (or take a
     * quarter of the timeout or longer) share a quarter of it, and all such endpoints half of the replica's slots
     * (domain/fair-share.ts).
     */
    WEBHOOK_COMPANY_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(16),
    WEBHOOK_GLOBAL_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(64),
    /** How long one attempt may take before it counts as a timeout. */
    WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
    /**
     * How long a picked delivery stays held before another worker may take it (a worker killed mid-delivery);
     * default: the timeout + 30 s. Must exceed the timeout, or a slow attempt is sent twice.
     */
    WEBHOOK_LEASE_MS: z.coerce.number().int().min(200).optional(),
    /** How often the worker looks for due deliveries when nothing woke it (a commit wakes it at once). */
    WEBHOOK_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
    /** The retry schedule's delays in ms, comma-separated (tests shorten it); default: RETRY_SCHEDULE_MS. */
    WEBHOOK_RETRY_SCHEDULE_MS: z
      .string()
      .regex(/^\d+(,\d+)*$/)
      .optional()
      .transform((s) => (s ? s.split(',').map(Number) : undefined)),
    /** An endpoint whose deliveries all failed for this long is disabled and its company's owners told. */
    WEBHOOK_DISABLE_AFTER_MS: z.coerce
      .number()
      .int()
      .min(1000)
      .default(3 * 24 * 3600 * 1000),
    /**
     * The process's scheduling niceness (0-19; Linux nice of its main thread, set at start by main.ts): deliveries
     * are background work, so where webhook-service shares cores with the services that finalize invoices, those
     * come first. 0 leaves it as started.
     */
    WEBHOOK_NICE: z.coerce.number().int().min(0).max(19).default(10),
    /** Sender of the e-mail that tells owners about a disabled endpoint. */
    MAIL_FROM: z.string().default('E-Rechnung <noreply@e-rechnung.example>'),
  })
  .transform((c, ctx) => {
    const production = c.NODE_ENV === 'production';
    if (production && !c.WEBHOOK_SECRET_KEYS)
      ctx.addIssue({ code: 'custom', path: ['WEBHOOK_SECRET_KEYS'], message: 'required in production' });
    const allowLoopback = c.WEBHOOKS_ALLOW_LOOPBACK === undefined ? !production : ['true', '1'].includes(c.WEBHOOKS_ALLOW_LOOPBACK);
    return { ...c, allowLoopback, httpsOnly: production };
  });
export type WebhookConfig = z.output<typeof webhookConfig>;
