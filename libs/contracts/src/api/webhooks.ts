import { z } from 'zod';
import { BankStatement } from './bank-statements';
import { EmailRecord } from './delivery';
import { InboundDocument } from './inbound';
import { RecurringInvoice, RecurringRunOutcome } from './recurring';
import { safeText } from './safe-text';
import { Customer, Invoice, QuotaUsage } from './responses';

/**
 * Signed webhooks (webhook-service): endpoints an integrator registers, the events pushed to them and the
 * delivery log. Deliveries follow the Standard Webhooks specification (https://www.standardwebhooks.com):
 * headers `webhook-id`, `webhook-timestamp`, `webhook-signature` (`v1,<base64 HMAC-SHA256>`, several
 * space-separated while a rotated secret overlaps with the new one).
 */

/** The version of the payload format; a breaking change of a payload is a new version. */
export const WEBHOOK_API_VERSION = '2026-11-01';

/** Most endpoints one company may register. */
export const MAX_WEBHOOK_ENDPOINTS = 16;

export const WEBHOOK_EVENT_TYPES = [
  'invoice.created',
  'invoice.finalized',
  'invoice.finalize_failed',
  'invoice.status_changed',
  'credit_note.finalized',
  'email.sent',
  'email.failed',
  'customer.vat_checked',
  'export.finished',
  'export.failed',
  'quota.limit_reached',
  'invoice.payment_recorded',
  'invoice.payment_reversed',
  'invoice.reminder_issued',
  'bank_statement.imported',
  'inbound_invoice.received',
  'recurring_invoice.run_finished',
  'ping',
] as const;
export const WebhookEventType = z.enum(WEBHOOK_EVENT_TYPES).meta({ id: 'WebhookEventType' });
export type WebhookEventType = z.output<typeof WebhookEventType>;

const Timestamp = z.string().meta({ description: 'ISO 8601 date-time (UTC)', example: '2026-11-21T10:15:00.000Z' });

/** `whsec_` + base64 of 24 to 32 random bytes (the Standard Webhooks secret format). */
export const WEBHOOK_SECRET_PATTERN = /^whsec_[A-Za-z0-9+/]{32,44}={0,2}$/;

const EventTypes = z
  .array(z.union([WebhookEventType, z.literal('*')]))
  .min(1)
  .max(WEBHOOK_EVENT_TYPES.length + 1)
  .meta({ description: 'the event types to receive, or `["*"]` for all (ping is always sent on request)' });
const Url = safeText(z.string().trim().min(1).max(2048)).meta({
  description:
    'where deliveries are POSTed: https (http only outside production); hosts resolving to private, loopback, link-local or metadata addresses are refused',
});
const Description = safeText(z.string().trim().max(500));

export const WebhookEndpointCreate = z
  .object({
    url: Url,
    event_types: EventTypes,
    description: Description.optional(),
    enabled: z.boolean().default(true),
  })
  .meta({ id: 'WebhookEndpointCreate' });
export type WebhookEndpointCreate = z.output<typeof WebhookEndpointCreate>;

export const WebhookEndpointUpdate = z
  .object({
    url: Url.optional(),
    event_types: EventTypes.optional(),
    description: Description.nullable().optional(),
    enabled: z.boolean().optional().meta({ description: 'true re-enables an endpoint that was disabled (its failure count starts over)' }),
  })
  .meta({ id: 'WebhookEndpointUpdate', description: 'the fields given change; the others stay' });
export type WebhookEndpointUpdate = z.output<typeof WebhookEndpointUpdate>;

export const WebhookEndpoint = z
  .object({
    id: z.string().meta({ example: 'we_3f1c2b7a9d0e4c5f8a6b1c2d' }),
    url: z.string(),
    event_types: z.array(z.string()),
    description: z.string().nullable(),
    enabled: z.boolean(),
    disabled_reason: z
      .enum(['gone', 'failing'])
      .nullable()
      .meta({ description: 'gone: the endpoint answered 410; failing: every delivery failed for 3 days' }),
    created_at: Timestamp,
    updated_at: Timestamp,
    secret_rotated_at: Timestamp.nullable(),
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpoint = z.output<typeof WebhookEndpoint>;

export const WebhookSecret = z
  .string()
  .meta({ description: 'the signing secret, shown only in this answer (store it now)', example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' });

export const CreatedWebhookEndpoint = WebhookEndpoint.extend({ secret: WebhookSecret }).meta({ id: 'CreatedWebhookEndpoint' });

export const RotatedWebhookSecret = z
  .object({
    secret: WebhookSecret,
    previous_secret_expires_at: Timestamp.meta({ description: 'until then deliveries carry a signature with the old secret too' }),
  })
  .meta({ id: 'RotatedWebhookSecret' });

export const WebhookEndpointList = z.object({ endpoints: z.array(WebhookEndpoint) }).meta({ id: 'WebhookEndpointList' });

export const WebhookDeliveryStatus = z.enum(['pending', 'delivered', 'failed']).meta({
  description:
    'pending: waiting for its next attempt (or in flight); delivered: a 2xx answer; failed: given up (after about 3 days, or the endpoint was disabled)',
});

export const WebhookAttempt = z.object({
  at: Timestamp,
  http_status: z.number().int().nullable().meta({ description: 'null when no answer came (timeout, refused connection)' }),
  duration_ms: z.number().int(),
  response_excerpt: z.string().nullable().meta({ description: 'the first 1 KB of the answer body' }),
  error: z.string().nullable().meta({ description: 'e.g. timeout, redirect_not_followed, connection_refused, address_not_allowed' }),
});

export const WebhookDelivery = z
  .object({
    id: z.string(),
    endpoint_id: z.string(),
    event_id: z.string().meta({ description: 'the `webhook-id` header and the payload `id`: the same on every retry' }),
    event_type: z.string(),
    status: WebhookDeliveryStatus,
    attempts: z.number().int(),
    next_attempt_at: Timestamp.nullable(),
    last_http_status: z.number().int().nullable(),
    last_duration_ms: z.number().int().nullable(),
    last_response_excerpt: z.string().nullable(),
    last_error: z.string().nullable(),
    attempt_log: z.array(WebhookAttempt).meta({ description: 'the last 20 attempts, oldest first' }),
    created_at: Timestamp,
    delivered_at: Timestamp.nullable(),
  })
  .meta({ id: 'WebhookDelivery' });

export const WebhookDeliveryQuery = z
  .object({
    status: WebhookDeliveryStatus.optional(),
    limit: z.coerce.number().int().min(1).max(100).default(25),
    cursor: z
      .string()
      .regex(/^[0-9a-f]{24}$/)
      .optional()
      .meta({ description: 'next_cursor of the previous page (newest first)', example: '665f1c2ab0c4d5e6f7a8b9c0' }),
  })
  .meta({ id: 'WebhookDeliveryQuery' });
export type WebhookDeliveryQuery = z.output<typeof WebhookDeliveryQuery>;

export const WebhookDeliveryPage = z
  .object({ deliveries: z.array(WebhookDelivery), next_cursor: z.string().nullable() })
  .meta({ id: 'WebhookDeliveryPage' });

export const WebhookReplay = z
  .object({
    since: z.iso.datetime({ offset: true }).meta({ description: 'failed deliveries created at or after this time are sent again' }),
  })
  .meta({ id: 'WebhookReplay' });
export const WebhookReplayResult = z
  .object({
    requeued: z.number().int().meta({ description: 'failed deliveries (retries ran out) queued again now', example: 2 }),
    waiting_for_retry: z.number().int().meta({
      description:
        'deliveries of the period that failed an attempt and still wait for their automatic retry (not touched: retry one now with POST .../deliveries/{delivery_id}/retry)',
      example: 1,
    }),
    next_retry_at: Timestamp.nullable().meta({ description: 'when the first of those is tried again; null when none waits' }),
    message: z.string().meta({
      example:
        '2 failed deliveries queued again; 1 delivery failed an attempt and waits for its automatic retry (the next at 2026-11-21T10:20:00.000Z): retry one now with POST .../deliveries/{delivery_id}/retry',
    }),
  })
  .meta({ id: 'WebhookReplayResult' });
export type WebhookReplayResult = z.output<typeof WebhookReplayResult>;

export const WebhookTestResult = z.object({ delivery_id: z.string(), event_id: z.string() }).meta({ id: 'WebhookTestResult' });

/**
 * The payloads. Every event carries the resource as its public GET shows it at the moment the delivery was
 * prepared (one snapshot per event: every endpoint and every retry get the same body). Order: none is promised
 * across resources; for one resource `sequence` grows with every event, so a receiver can drop an event whose
 * sequence is lower than one it has already processed.
 */
const envelope = <T extends WebhookEventType, D extends z.ZodType>(type: T, data: D, description: string) =>
  z
    .object({
      id: z.string().meta({ description: 'the event id (also the `webhook-id` header); retries keep it' }),
      type: z.literal(type),
      api_version: z.literal(WEBHOOK_API_VERSION),
      created_at: Timestamp.meta({ description: 'when the fact happened' }),
      sequence: z.number().int().meta({ description: 'grows per resource: drop an event older than one already processed' }),
      data,
    })
    .meta({ description });

const ExportJob = z
  .object({ id: z.string(), status: z.string() })
  .loose()
  .meta({ description: 'the export job as GET /exports/job/{job_id} shows it' });
const gone = 'null when it no longer exists (deleted before the delivery was prepared)';
const Amount = z
  .number()
  .meta({ description: 'an amount in EUR as a JSON number, exact to the cent, as every amount the API answers', example: 116.62 });
const CalendarDate = z.string().meta({ description: 'calendar date YYYY-MM-DD', example: '2026-11-21' });

const InvoiceData = z.object({ invoice: Invoice.nullable().meta({ description: gone }) });

export const WEBHOOK_PAYLOADS = {
  'invoice.created': envelope('invoice.created', InvoiceData, 'A draft invoice (or credit note) was created.'),
  'invoice.finalized': envelope(
    'invoice.finalized',
    InvoiceData.extend({ pdf_available: z.literal(true), xml_available: z.boolean() }),
    'An invoice was finalized: its number is final and the PDF (and the e-invoice XML for XML formats) can be downloaded.',
  ),
  'invoice.finalize_failed': envelope(
    'invoice.finalize_failed',
    InvoiceData.extend({ reason: z.string() }),
    'A finalization failed; the invoice is an editable draft again.',
  ),
  'invoice.status_changed': envelope(
    'invoice.status_changed',
    InvoiceData.extend({
      status: z.enum(['SENT', 'PAID', 'CANCELLED', 'OVERDUE']).meta({
        description: 'OVERDUE: the due date passed unpaid (once per invoice and due date, found by the daily reminder run)',
      }),
    }),
    'An invoice became SENT, PAID or CANCELLED, or passed its due date unpaid (OVERDUE).',
  ),
  'invoice.payment_recorded': envelope(
    'invoice.payment_recorded',
    InvoiceData.extend({
      payment: z.object({
        id: z.number().int().meta({ description: 'the payment (GET /invoice/{id}/payments)' }),
        amount: Amount,
        discount: Amount.meta({ description: 'Skonto granted with this payment (0 without)' }),
        date: CalendarDate,
        method: z.string().nullable(),
        reference: z.string().nullable(),
        source: z.enum(['manual', 'status', 'bank_statement']).meta({
          description:
            'manual: recorded through the API; status: the invoice was set PAID; bank_statement: a matched credit of an imported statement',
        }),
        currency: z.string().optional(),
      }),
      open_amount: Amount.meta({ description: 'what is still open after this payment' }),
      paid_in_full: z.boolean(),
    }),
    'A payment of an invoice was recorded (by hand, by setting it PAID, or from a bank statement).',
  ),
  'invoice.payment_reversed': envelope(
    'invoice.payment_reversed',
    InvoiceData.extend({
      payment: z.object({
        id: z.number().int(),
        amount: Amount,
        discount: Amount,
        date: CalendarDate,
        reversed_at: Timestamp,
      }),
      open_amount: Amount.meta({ description: 'what is open again after the reversal' }),
    }),
    'A recorded payment was reversed; the invoice is open again by its amount and discount.',
  ),
  'invoice.reminder_issued': envelope(
    'invoice.reminder_issued',
    InvoiceData.extend({
      reminder: z.object({
        id: z.number().int(),
        level: z.number().int().min(1).max(3).meta({
          description: '1: payment reminder (Zahlungserinnerung), 2: overdue notice (1. Mahnung), 3: final reminder (2. Mahnung)',
        }),
        date: CalendarDate,
        fee: Amount,
        flat_fee: Amount.meta({ description: 'the € 40 flat fee of § 288 (5) BGB charged with this reminder (0: none)' }),
        interest: Amount,
        open_amount: Amount,
        emailed: z.boolean().meta({ description: 'whether it was e-mailed to the customer' }),
      }),
    }),
    'A reminder (payment reminder, overdue notice or final reminder) was issued for an invoice.',
  ),
  'bank_statement.imported': envelope(
    'bank_statement.imported',
    z.object({
      bank_statement: BankStatement.nullable().meta({
        description: `the statement as GET /bank-statements/{id} shows it (with the first 100 entries); ${gone}`,
      }),
      statement_id: z.number().int(),
      credits: z.number().int().meta({ description: 'credits the statement held' }),
      proposals: z.number().int().meta({ description: 'credits matched to open invoices (proposals to confirm)' }),
    }),
    'A bank statement (camt.053) was imported.',
  ),
  'inbound_invoice.received': envelope(
    'inbound_invoice.received',
    z.object({ inbound_invoice: InboundDocument.nullable().meta({ description: gone }) }),
    "A supplier's e-invoice was received and read (its validation verdict in valid and findings).",
  ),
  'recurring_invoice.run_finished': envelope(
    'recurring_invoice.run_finished',
    z.object({
      recurring_invoice: RecurringInvoice.nullable().meta({
        description: `the schedule as GET /recurring-invoices/{id} shows it; ${gone}`,
      }),
      run: z.object({
        period_start: CalendarDate,
        period_end: CalendarDate,
        invoice_id: z.number().int().nullable().meta({ description: 'the invoice the run issued (null: none was created)' }),
        outcome: RecurringRunOutcome,
        paused_reason: z.enum(['quota_exceeded', 'invoice_rejected', 'finalize_failed']).nullable().meta({
          description:
            "the schedule paused at this run: the plan's quota is used up, invoice-service refused the draft, or finalization was refused (422) or failed",
        }),
        error: z.string().nullable(),
      }),
    }),
    "A recurring invoice's run for one period ended: the invoice it issued and how far it got, or why the schedule paused.",
  ),
  'credit_note.finalized': envelope(
    'credit_note.finalized',
    InvoiceData.extend({ pdf_available: z.literal(true), xml_available: z.boolean() }),
    'A credit note was finalized.',
  ),
  'email.sent': envelope(
    'email.sent',
    z.object({ invoice_id: z.number().int().nullable(), email: EmailRecord.nullable() }),
    'An invoice e-mail was accepted by the mail server.',
  ),
  'email.failed': envelope(
    'email.failed',
    z.object({ invoice_id: z.number().int().nullable(), email: EmailRecord.nullable(), reason: z.string() }),
    'An invoice e-mail failed (or its outcome is unconfirmed).',
  ),
  'customer.vat_checked': envelope(
    'customer.vat_checked',
    z.object({ customer: Customer.nullable().meta({ description: gone }) }),
    "A customer's VAT ID was checked at VIES; customer.vat_check holds the verdict.",
  ),
  'export.finished': envelope(
    'export.finished',
    z.object({ export: ExportJob.nullable() }),
    'An accounting export finished; its downloads are ready.',
  ),
  'export.failed': envelope('export.failed', z.object({ export: ExportJob.nullable() }), 'An accounting export failed.'),
  'quota.limit_reached': envelope(
    'quota.limit_reached',
    z.object({ quota: QuotaUsage.nullable() }),
    "The month's finalizations are used up: further finalizations answer 402 until reset_date.",
  ),
  ping: envelope('ping', z.object({ endpoint_id: z.string() }), 'Sent by POST /webhook-endpoints/{id}/test.'),
} as const satisfies Record<WebhookEventType, z.ZodType>;
