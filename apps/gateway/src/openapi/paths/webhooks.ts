import { z } from 'zod';
import {
  CreatedWebhookEndpoint,
  MAX_WEBHOOK_ENDPOINTS,
  MessageBody,
  RotatedWebhookSecret,
  WEBHOOK_API_VERSION,
  WEBHOOK_PAYLOADS,
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

const invoiceExample = { id: 42, number: 'RE-2026-0042', status: 'SENT', '…': 'the invoice as GET /invoice/{id} shows it' };
const envelopeExample = (type: string, sequence: number, data: Record<string, unknown>) => ({
  id: 'evt_5b0c9d7e1a2f3b4c5d6e7f80',
  type,
  api_version: WEBHOOK_API_VERSION,
  created_at: '2026-11-21T10:15:00.000Z',
  sequence,
  data,
});

/** Example payloads of the webhooks section (the event types without one show the schema's generated example). */
const WEBHOOK_EXAMPLES: Partial<Record<string, unknown>> = {
  'invoice.status_changed': envelopeExample('invoice.status_changed', 4, { invoice: invoiceExample, status: 'OVERDUE' }),
  'invoice.payment_recorded': envelopeExample('invoice.payment_recorded', 5, {
    invoice: invoiceExample,
    payment: {
      id: 7,
      amount: '116.62',
      discount: '2.38',
      date: '2026-11-21',
      method: 'BANK_TRANSFER',
      reference: 'RE-2026-0042',
      source: 'manual',
      currency: 'EUR',
    },
    open_amount: '0.00',
    paid_in_full: true,
  }),
  'invoice.payment_reversed': envelopeExample('invoice.payment_reversed', 6, {
    invoice: invoiceExample,
    payment: { id: 7, amount: '116.62', discount: '2.38', date: '2026-11-21', reversed_at: '2026-11-22T08:00:00.000Z' },
    open_amount: '119.00',
  }),
  'invoice.reminder_issued': envelopeExample('invoice.reminder_issued', 5, {
    invoice: invoiceExample,
    reminder: {
      id: 3,
      level: 2,
      date: '2026-12-19',
      fee: '5.00',
      flat_fee: '40.00',
      interest: '0.41',
      open_amount: '119.00',
      emailed: true,
    },
  }),
  'bank_statement.imported': envelopeExample('bank_statement.imported', 1, {
    bank_statement: {
      id: 12,
      message_id: 'STMT-2026-11-21-001',
      camt_version: '08',
      entries_total: 15,
      credits: 14,
      debits: 1,
      credits_with_proposals: 11,
      confirmed: 0,
      ignored: 0,
      entries: [],
      '…': 'the statement as GET /bank-statements/{id} shows it, with the first 100 entries',
    },
    statement_id: 12,
    credits: 14,
    proposals: 11,
  }),
  'recurring_invoice.run_finished': envelopeExample('recurring_invoice.run_finished', 3, {
    recurring_invoice: {
      id: 4,
      name: 'Office rent Musterstraße 1',
      status: 'paused',
      paused_reason: 'quota_exceeded',
      next_run_date: '2026-12-01',
      '…': 'the schedule as GET /recurring-invoices/{id} shows it',
    },
    run: {
      period_start: '2026-12-01',
      period_end: '2026-12-31',
      invoice_id: 118,
      outcome: 'quota_exceeded',
      paused_reason: 'quota_exceeded',
      error: '402 INVOICE_LIMIT_REACHED: the monthly limit of 50 invoices is reached',
    },
  }),
  'inbound_invoice.received': envelopeExample('inbound_invoice.received', 1, {
    inbound_invoice: {
      id: 31,
      status: 'RECEIVED',
      valid: true,
      received_at: '2026-11-21T10:15:00.000Z',
      filename: 'INV-2026-118.xml',
      media_type: 'application/xml',
      size: 14230,
      sha256: '9f2c4e0b7d1a3c5e8f6b2d4a1c3e5f7a9b0d2c4e6f8a1b3d5c7e9f0a2b4c6d8e',
      format: 'xrechnung-ubl',
      iban_differs: false,
      '…': 'the document as GET /inbound/{id} shows it',
    },
  }),
};

/** The OpenAPI 3.1 `webhooks` section: one entry per event type, its payload as the request body we send. */
export function webhookEvents(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(WEBHOOK_PAYLOADS).map(([type, schema]) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replace(/\./g, '_')}`,
          tags: [TAG],
          summary: (schema as z.ZodType).description ?? type,
          description: 'Signed, retried and ordered as the Webhooks tag describes; `data` holds the resource as its GET shows it.',
          security: [],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: responseSchema(schema as z.ZodType),
                ...(WEBHOOK_EXAMPLES[type] === undefined ? {} : { example: WEBHOOK_EXAMPLES[type] }),
              },
            },
          },
          responses: { '2XX': { description: 'received (any 2xx; 410 disables the endpoint, anything else is retried)' } },
        },
      },
    ]),
  );
}
