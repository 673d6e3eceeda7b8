import { createHash } from 'node:crypto';
import { z } from 'zod';
import {
  CreatedWebhookEndpoint,
  MAX_WEBHOOK_ENDPOINTS,
  MessageBody,
  RotatedWebhookSecret,
  WEBHOOK_API_VERSION,
  INVOICE_EXAMPLE,
  WEBHOOK_PAYLOADS,
  type WebhookEventType,
  WebhookDeliveryPage,
  WebhookDeliveryQuery,
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointList,
  WebhookEndpointUpdate,
  WebhookReplay,
  WebhookReplayResult,
  WebhookTestResult,
} from '@inv/contracts';
import {
  body,
  bodyErrors,
  commonErrors,
  conflict,
  json,
  notFound,
  problem,
  queryParams,
  responseSchema,
  strId,
  type Operation,
} from '../builder';
import { entry, statement } from './bank-statements';
import { example as inboundExample } from './inbound';
import { pausedExample } from './recurring';

const TAG = 'Webhooks';
const forbidden = { 403: problem('the role lacks webhooks:manage (owner and admin only) (FORBIDDEN)') };
const disabled = conflict('the endpoint is disabled: enable it first (WEBHOOK_ENDPOINT_DISABLED)');

/** How deliveries work, for the tag and the webhooks section. */
export const WEBHOOKS_DESCRIPTION =
  [
    'Events are POSTed to your endpoints by the [Standard Webhooks](https://www.standardwebhooks.com) specification:',
    'headers `webhook-id` (the event id, the same on every retry: use it to drop duplicates), `webhook-timestamp` (Unix seconds)',
    'and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` with the secret after `whsec_`, base64-decoded;',
    'during the 24 h after a secret rotation two signatures, space-separated). Verify with any Standard Webhooks library.',
    'Delivery is at least once: answer 2xx within 10 s; any other answer, a redirect (never followed) or a timeout is retried',
    'after about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h (±20 %), 3 days in all. 410 Gone disables the endpoint;',
    'an endpoint failing for 3 days is disabled and the owners are e-mailed. Order is not promised across resources; per resource,',
    '`sequence` grows with each event, so drop an event whose sequence is lower than one you processed. Every payload carries the',
    'resource as its GET shows it when the event was prepared (the same bytes on every retry).',
  ].join(' ') +
  [
    '',
    '',
    'Verifying in Node with the [`standardwebhooks`](https://www.npmjs.com/package/standardwebhooks) package, on the raw body:',
    '',
    '```js',
    "import { Webhook } from 'standardwebhooks';",
    'const wh = new Webhook(process.env.INVOICING_WEBHOOK_SECRET); // whsec_…',
    "app.post('/hooks/invoicing', express.raw({ type: 'application/json' }), (req, res) => {",
    '  let event;',
    '  try {',
    "    event = wh.verify(req.body.toString('utf8'), req.headers); // signature and timestamp (±5 min)",
    '  } catch {',
    '    return res.sendStatus(400);',
    '  }',
    '  // at least once: skip an event.id you have processed; answer fast, work afterwards',
    '  res.sendStatus(204);',
    '});',
    '```',
  ].join('\n');

/** Webhook endpoints, their secrets and the delivery log (webhook-service). */
export function webhookPaths(): Record<string, Record<string, unknown>> {
  const op = (o: Omit<Operation, 'tags'>): Operation => ({ tags: [TAG], ...o });
  const id = strId('endpoint_id', 'webhook endpoint id (we_…)');
  return {
    '/webhook-endpoints/': {
      get: op({
        operationId: 'listWebhookEndpoints',
        summary: 'List webhook endpoints',
        responses: { 200: json(WebhookEndpointList), ...commonErrors(), ...forbidden },
      }),
      post: op({
        operationId: 'createWebhookEndpoint',
        summary: 'Register a webhook endpoint',
        description: `At most ${MAX_WEBHOOK_ENDPOINTS} per company. The answer carries the signing secret, shown only here. URLs must be https; hosts that resolve to private, loopback, link-local or metadata addresses are refused (400 WEBHOOK_URL_NOT_ALLOWED), and checked again at every connection.`,
        requestBody: body(WebhookEndpointCreate, {
          url: 'https://erp.example.com/hooks/invoicing',
          event_types: ['invoice.finalized', 'invoice.status_changed'],
          description: 'ERP',
        }),
        responses: {
          201: json(CreatedWebhookEndpoint, 'created (Location: the endpoint); store the secret now'),
          ...conflict(`the company has ${MAX_WEBHOOK_ENDPOINTS} endpoints (WEBHOOK_ENDPOINT_LIMIT_REACHED)`),
          ...bodyErrors(),
          ...commonErrors(),
          ...forbidden,
        },
      }),
    },
    '/webhook-endpoints/{endpoint_id}': {
      parameters: [id],
      get: op({
        operationId: 'getWebhookEndpoint',
        summary: 'Get a webhook endpoint',
        responses: { 200: json(WebhookEndpoint), ...notFound(), ...commonErrors(), ...forbidden },
      }),
      put: op({
        operationId: 'updateWebhookEndpoint',
        summary: 'Change a webhook endpoint',
        description: 'The fields given change. `enabled: true` re-enables a disabled endpoint (then replay what it missed).',
        requestBody: body(WebhookEndpointUpdate, { enabled: true }),
        responses: { 200: json(WebhookEndpoint), ...notFound(), ...bodyErrors(), ...commonErrors(), ...forbidden },
      }),
      delete: op({
        operationId: 'deleteWebhookEndpoint',
        summary: 'Delete a webhook endpoint',
        description: 'Its pending deliveries are not sent.',
        responses: { 200: json(MessageBody), ...notFound(), ...commonErrors(), ...forbidden },
      }),
    },
    '/webhook-endpoints/{endpoint_id}/rotate-secret': {
      parameters: [id],
      post: op({
        operationId: 'rotateWebhookSecret',
        summary: 'Rotate the signing secret',
        description: 'Answers the new secret once. The previous one keeps signing beside it for 24 h (two signatures per delivery).',
        responses: { 200: json(RotatedWebhookSecret), ...notFound(), ...commonErrors(), ...forbidden },
      }),
    },
    '/webhook-endpoints/{endpoint_id}/test': {
      parameters: [id],
      post: op({
        operationId: 'testWebhookEndpoint',
        summary: 'Send a ping',
        description: 'Queues a `ping` event to the endpoint; see its outcome in the delivery log.',
        responses: { 202: json(WebhookTestResult, 'queued'), ...notFound(), ...disabled, ...commonErrors(), ...forbidden },
      }),
    },
    '/webhook-endpoints/{endpoint_id}/deliveries': {
      parameters: [id],
      get: op({
        operationId: 'listWebhookDeliveries',
        summary: 'The delivery log',
        description: 'Newest first, with every attempt: HTTP status, duration and the first 1 KB of the answer.',
        parameters: queryParams(WebhookDeliveryQuery),
        responses: { 200: json(WebhookDeliveryPage), ...notFound(), ...commonErrors(), ...forbidden },
      }),
    },
    '/webhook-endpoints/{endpoint_id}/deliveries/{delivery_id}/retry': {
      parameters: [id, strId('delivery_id', 'delivery id (wd_…)')],
      post: op({
        operationId: 'retryWebhookDelivery',
        summary: 'Send a delivery again',
        description:
          'The same event id and payload, now: a delivered or failed delivery starts a new round of the retry schedule, a pending one waiting for its next attempt is tried at once.',
        responses: {
          202: json(MessageBody, 'queued'),
          ...notFound(),
          ...conflict('an attempt of the delivery is in flight (DELIVERY_PENDING) or the endpoint is disabled (WEBHOOK_ENDPOINT_DISABLED)'),
          ...commonErrors(),
          ...forbidden,
        },
      }),
    },
    '/webhook-endpoints/{endpoint_id}/replay': {
      parameters: [id],
      post: op({
        operationId: 'replayWebhookDeliveries',
        summary: 'Send failed deliveries again',
        description:
          'Re-queues every failed delivery (its retries ran out) of the endpoint created since `since`, and answers how many (`requeued`). Deliveries of that time that failed an attempt but still wait for their automatic retry are not touched: the answer counts them in `waiting_for_retry` with `next_retry_at`, and `message` says both (send one at once with the retry operation).',
        requestBody: body(WebhookReplay, { since: '2026-11-20T00:00:00Z' }),
        responses: { 200: json(WebhookReplayResult), ...notFound(), ...disabled, ...bodyErrors(), ...commonErrors(), ...forbidden },
      }),
    },
  };
}

/** An event id as webhook-service makes them (evt_ and 24 hex digits of a hash of the bus envelope). */
const eventId = (type: string) => `evt_${createHash('sha256').update(`example:${type}`).digest('hex').slice(0, 24)}`;
const envelopeExample = (type: string, sequence: number, data: Record<string, unknown>) => ({
  id: eventId(type),
  type,
  api_version: WEBHOOK_API_VERSION,
  created_at: '2026-11-21T09:30:05.000Z',
  sequence,
  data,
});

type Example = Record<string, unknown>;

/**
 * The payload of every event type as a real delivery carries it: the resource as its GET showed it when the event was
 * prepared (an invoice just finalized is OPEN, one paid in full PAID with nothing open, …) and the event's own fields.
 * `components` are the document's schemas with their examples (the customer, e-mail, export and quota answers).
 */
export function webhookExamples(components: Record<string, { example?: unknown }>): Record<WebhookEventType, unknown> {
  const component = (name: string) => components[name]?.example as Example;
  const invoice = INVOICE_EXAMPLE as Example;
  const draft = {
    ...invoice,
    status: 'DRAFT',
    invoice_date: null,
    due_date: null,
    open_amount: null,
    updated_at: invoice.created_at,
    finalized_at: null,
  };
  const sent = { ...invoice, status: 'SENT', updated_at: '2026-11-21T09:31:12.000Z' };
  const paid = {
    ...invoice,
    status: 'PAID',
    paid_date: '2026-11-28',
    payment_method: 'BANK_TRANSFER',
    paid_amount: 1049.58,
    skonto_amount: 21.42,
    open_amount: 0,
    updated_at: '2026-11-28T08:12:40.000Z',
  };
  const overdue = { ...sent, updated_at: '2026-12-06T06:00:02.000Z' };
  const creditNote = {
    ...invoice,
    id: 57,
    invoice_id: 57,
    invoice_number: 'GS-2026-00003',
    document_type: 'CREDIT_NOTE',
    preceding_invoice_id: 42,
    note: 'Gutschrift zu RE-2026-00042: 2 Stunden',
    payment_reference: 'GS-2026-00003',
    net_amount: 180,
    tax_amount: 34.2,
    gross_amount: 214.2,
    amount_due: 214.2,
    vat_breakdown: [{ vat_category: 'S', tax_rate: 0.19, net_amount: 180, tax_amount: 34.2 }],
    credited_amount: 214.2,
    open_amount: 0,
    status: 'PAID',
    paid_date: '2026-11-22',
    positions: [{ ...(invoice.positions as Example[])[0], id: 9, quantity: 2, single_net_amount: 200, net_amount_after_discount: 180 }],
    created_at: '2026-11-22T10:00:00.000Z',
    updated_at: '2026-11-22T10:00:03.000Z',
    finalized_at: '2026-11-22T10:00:03.000Z',
  };
  const email = {
    ...component('EmailRecord'),
    id: '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed',
    to: ['buchhaltung@kunde.example'],
    cc: [],
    bcc: [],
    message_id: '<1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed@invoicing.example>',
  };
  const exportJob = component('ExportJob');
  return {
    'invoice.created': envelopeExample('invoice.created', 1, { invoice: draft }),
    'invoice.finalized': envelopeExample('invoice.finalized', 3, { invoice, pdf_available: true, xml_available: true }),
    'invoice.finalize_failed': envelopeExample('invoice.finalize_failed', 2, {
      invoice: draft,
      reason: 'rendering failed: the template could not be loaded',
    }),
    'invoice.status_changed': envelopeExample('invoice.status_changed', 5, { invoice: overdue, status: 'OVERDUE' }),
    'invoice.payment_recorded': envelopeExample('invoice.payment_recorded', 6, {
      invoice: paid,
      payment: {
        id: 7,
        amount: 1049.58,
        discount: 21.42,
        date: '2026-11-28',
        method: 'BANK_TRANSFER',
        reference: 'RE-2026-00042',
        source: 'bank_statement',
        currency: 'EUR',
      },
      open_amount: 0,
      paid_in_full: true,
    }),
    'invoice.payment_reversed': envelopeExample('invoice.payment_reversed', 7, {
      invoice: { ...sent, updated_at: '2026-11-29T08:00:00.000Z' },
      payment: { id: 7, amount: 1049.58, discount: 21.42, date: '2026-11-28', reversed_at: '2026-11-29T08:00:00.000Z' },
      open_amount: 1071,
    }),
    'invoice.reminder_issued': envelopeExample('invoice.reminder_issued', 6, {
      invoice: overdue,
      reminder: {
        id: 3,
        level: 1,
        date: '2026-12-12',
        fee: 0,
        flat_fee: 0,
        interest: 0,
        open_amount: 1071,
        emailed: true,
      },
    }),
    'bank_statement.imported': envelopeExample('bank_statement.imported', 1, {
      bank_statement: {
        ...statement,
        entries_total: 1,
        credits: 1,
        debits: 0,
        credits_with_proposals: 1,
        entries: [entry],
        page: 1,
        limit: 100,
        total: 1,
      },
      statement_id: statement.id,
      credits: 1,
      proposals: 1,
    }),
    'inbound_invoice.received': envelopeExample('inbound_invoice.received', 1, { inbound_invoice: inboundExample }),
    'recurring_invoice.run_finished': envelopeExample('recurring_invoice.run_finished', 2, {
      recurring_invoice: pausedExample,
      run: {
        period_start: '2027-01-01',
        period_end: '2027-01-31',
        invoice_id: 388,
        outcome: 'quota_exceeded',
        paused_reason: 'quota_exceeded',
        error: '402 INVOICE_LIMIT_REACHED: monthly invoice limit of 3 reached; it resets on 2027-02-01',
      },
    }),
    'credit_note.finalized': envelopeExample('credit_note.finalized', 3, { invoice: creditNote, pdf_available: true, xml_available: true }),
    'email.sent': envelopeExample('email.sent', 4, {
      invoice_id: 42,
      email: { ...email, status: 'sent', error: null, sent_at: '2026-11-21T09:31:12.000Z' },
    }),
    'email.failed': envelopeExample('email.failed', 4, {
      invoice_id: 42,
      email: { ...email, status: 'failed', sent_at: null, error: '550 5.1.1 mailbox unavailable' },
      reason: '550 5.1.1 mailbox unavailable',
    }),
    'customer.vat_checked': envelopeExample('customer.vat_checked', 2, { customer: component('Customer') }),
    'export.finished': envelopeExample('export.finished', 2, { export: exportJob }),
    'export.failed': envelopeExample('export.failed', 2, {
      export: { ...exportJob, status: 'failed', result: null, error_message: 'no account mapping for tax rate 0.07 (SKR03)' },
    }),
    'quota.limit_reached': envelopeExample('quota.limit_reached', 1, {
      quota: { plan: 'free', used: 10, limit: 10, reset_date: '2026-12-01' },
    }),
    ping: envelopeExample('ping', 1, { endpoint_id: 'we_3kq9Zt7wXbP2mR8vN4yL6c' }),
  };
}

/** The OpenAPI 3.1 `webhooks` section: one entry per event type, its payload as the request body we send. */
export function webhookEvents(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(WEBHOOK_PAYLOADS).map(([type, schema]) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replace(/\./g, '_')}`,
          tags: [TAG],
          // the event's name is its title: what an integrator subscribes to and searches for
          summary: type,
          description:
            `${(schema as z.ZodType).description ?? ''} Signed, retried and ordered as the Webhooks tag describes; \`data\` holds the resource as its GET shows it.`.trim(),
          security: [],
          requestBody: {
            required: true,
            content: {
              // its example is set once the document's examples exist (webhookExamples, document.ts)
              'application/json': { schema: responseSchema(schema as z.ZodType) },
            },
          },
          responses: { '2XX': { description: 'received (any 2xx; 410 disables the endpoint, anything else is retried)' } },
        },
      },
    ]),
  );
}
