import { z } from 'zod';
import {
  AddressCreate,
  AddressUpdate,
  CustomerCreate,
  CustomerUpdate,
  InvoiceCreate,
  InvoiceUpdate,
  JobRequest,
  PositionCreate,
  PositionUpdate,
  StatusUpdate,
} from '@inv/contracts';

/** Named schemas (zod `.meta({ id })`) collected into components.schemas while the paths are built. */
const named: Record<string, unknown> = {};

/** JSON Schema of a contract as the client sends it; named parts become `#/components/schemas/<id>`. */
function schema(s: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(s, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  const text = JSON.stringify(json).replace(/"#\/\$defs\/([^"]+)"/g, '"#/components/schemas/$1"');
  const { $defs, $schema: _drop, ...rest } = JSON.parse(text) as { $defs?: Record<string, unknown>; $schema?: string };
  Object.assign(named, $defs ?? {});
  return rest;
}

const problem = {
  description: 'error (application/problem+json)',
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
};
const errors = { 400: problem, 401: problem, 404: problem, 429: problem };
const json = (s: object, description = 'OK') => ({ description, content: { 'application/json': { schema: s } } });
const body = (s: z.ZodType) => ({ required: true, content: { 'application/json': { schema: schema(s) } } });
const idParam = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'integer', minimum: 1 } });
const created = (idField: string) =>
  json({ type: 'object', required: ['message', idField], properties: { message: { type: 'string' }, [idField]: idField === 'job_id' ? { type: 'string' } : { type: 'integer' } } }, 'created');

/** The OpenAPI 3.1 document, generated from the zod contracts the services validate with. */
export function buildOpenApiDocument() {
  const document = {
    openapi: '3.1.0',
    info: {
      title: 'Invoicing API',
      version: '1.0.0',
      description:
        'EU e-invoicing: customers, invoices (ZUGFeRD/Factur-X, XRechnung, PEPPOL, FatturaPA, Facturae), VAT ID checks, accounting export. ' +
        'Every request carries X-API-Key. Null in a request body means "not given"; unknown fields are ignored. Errors are RFC 9457 problem documents ' +
        'with `message`, `error_code` and `code`. Asynchronous work (finalization, exports) is a job: poll it every 2 s with exponential backoff. ' +
        'POST requests accept an `Idempotency-Key` header: a retry with the same key and body returns the first answer (marked `Idempotent-Replayed: true`) without running again. ' +
        'Requests are limited per company (default 50 per second): beyond it the answer is 429 with `Retry-After` and `RateLimit-*` headers. Lists are paginated with `page` and `limit` (default 25, at most 100).',
    },
    servers: [{ url: '/api/v1' }],
    security: [{ ApiKey: [] }],
    components: {
      securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
      schemas: {
        Problem: {
          type: 'object',
          required: ['type', 'title', 'status', 'detail', 'message', 'error_code', 'code'],
          properties: {
            type: { type: 'string' },
            title: { type: 'string' },
            status: { type: 'integer' },
            detail: { type: 'string' },
            message: { type: 'string' },
            error_code: { type: 'string' },
            code: { type: 'string' },
            errors: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } } },
            error_id: { type: 'string', description: 'present on 500; quote it when reporting the problem' },
          },
        } as Record<string, unknown>,
      } as Record<string, unknown>,
    },
    paths: {
      '/customer/': {
        get: { summary: 'List customers', parameters: [{ name: 'page', in: 'query', schema: { type: 'integer' } }, { name: 'limit', in: 'query', schema: { type: 'integer', maximum: 100 } }, { name: 'q', in: 'query', schema: { type: 'string' } }, { name: 'email', in: 'query', schema: { type: 'string' } }], responses: { 200: json({ type: 'object' }), ...errors } },
        post: { summary: 'Create a customer', requestBody: body(CustomerCreate), responses: { 201: created('id'), ...errors } },
      },
      '/customer/{id}': {
        parameters: [idParam('id')],
        get: { summary: 'Get a customer', responses: { 200: json({ type: 'object' }), ...errors } },
        put: { summary: 'Update a customer (only the fields sent change)', requestBody: body(CustomerUpdate), responses: { 200: json({ type: 'object' }), ...errors } },
      },
      '/customer/{id}/addresses': {
        parameters: [idParam('id')],
        get: { summary: 'List addresses', responses: { 200: json({ type: 'object' }), ...errors } },
        post: { summary: 'Add an address (without type: billing)', requestBody: body(AddressCreate), responses: { 201: created('id'), ...errors } },
      },
      '/customer/{id}/addresses/{address_id}': {
        parameters: [idParam('id'), idParam('address_id')],
        get: { summary: 'Get an address', responses: { 200: json({ type: 'object' }), ...errors } },
        put: { summary: 'Update an address (only the fields sent change)', requestBody: body(AddressUpdate), responses: { 200: json({ type: 'object' }), ...errors } },
        delete: { summary: 'Delete an address', responses: { 200: json({ type: 'object' }), ...errors } },
      },
      '/customer/{id}/vat-check': {
        parameters: [idParam('id')],
        get: { summary: 'Current VIES status with its evidence (request date, name, address, consultation number); triggers a fresh check', responses: { 200: json({ type: 'object' }), ...errors } },
      },
      '/customer/{id}/financial-overview': { parameters: [idParam('id')], get: { summary: 'Outstanding, overdue and paid totals with counts', responses: { 200: json({ type: 'object' }), ...errors } } },
      '/customer/{id}/statement': {
        parameters: [idParam('id'), { name: 'from', in: 'query', schema: { type: 'string', format: 'date' } }, { name: 'to', in: 'query', schema: { type: 'string', format: 'date' } }],
        get: { summary: 'Account statement: opening balance, entries with running balance, closing balance', responses: { 200: json({ type: 'object' }), ...errors } },
      },
      '/customer/{id}/statement/pdf': { parameters: [idParam('id')], get: { summary: 'Presigned link to the statement PDF', responses: { 200: json({ type: 'object', properties: { url: { type: 'string' } } }), 503: problem, ...errors } } },
      '/customer/payment-terms': { get: { summary: 'Payment terms of the company', responses: { 200: json({ type: 'object' }) } } },
      '/invoice/': {
        get: { summary: 'List invoices', parameters: [{ name: 'page', in: 'query', schema: { type: 'integer' } }, { name: 'limit', in: 'query', schema: { type: 'integer', maximum: 100 } }, { name: 'status', in: 'query', schema: { type: 'string' } }], responses: { 200: json({ type: 'object' }), ...errors } },
        post: { summary: 'Create a draft invoice', requestBody: body(InvoiceCreate), responses: { 201: created('invoice_id'), ...errors } },
      },
      '/invoice/{id}': {
        parameters: [idParam('id')],
        get: { summary: 'Get an invoice with positions and totals', responses: { 200: json({ type: 'object' }), ...errors } },
        put: { summary: 'Update a draft invoice', requestBody: body(InvoiceUpdate), responses: { 200: json({ type: 'object' }), 409: problem, ...errors } },
      },
      '/invoice/{id}/positions': {
        parameters: [idParam('id')],
        get: { summary: 'List positions', responses: { 200: json({ type: 'object' }), ...errors } },
        post: { summary: 'Add a position; totals are recalculated', requestBody: body(PositionCreate), responses: { 201: created('id'), 409: problem, ...errors } },
      },
      '/invoice/{id}/position/{position_id}': {
        parameters: [idParam('id'), idParam('position_id')],
        get: { summary: 'Get a position', responses: { 200: json({ type: 'object' }), ...errors } },
        put: { summary: 'Update a position', requestBody: body(PositionUpdate), responses: { 200: json({ type: 'object' }), 409: problem, ...errors } },
        delete: { summary: 'Delete a position', responses: { 200: json({ type: 'object' }), 409: problem, ...errors } },
      },
      '/invoice/{id}/job': {
        parameters: [idParam('id')],
        post: {
          summary: 'Finalize: enqueue PDF and e-invoice generation',
          requestBody: body(JobRequest),
          responses: { 201: created('job_id'), 402: problem, 409: problem, 422: problem, ...errors },
        },
      },
      '/invoice/{id}/job/{job_id}': {
        parameters: [idParam('id'), { name: 'job_id', in: 'path', required: true, schema: { type: 'string' } }],
        get: { summary: 'Poll a job', responses: { 200: json({ type: 'object', properties: { status: { enum: ['queued', 'started', 'finished', 'failed'] }, error_message: { type: 'string' } } }), ...errors } },
      },
      '/invoice/{id}/status': {
        parameters: [idParam('id')],
        put: { summary: 'Mark as SENT or PAID', requestBody: body(StatusUpdate), responses: { 200: json({ type: 'object' }), 409: problem, ...errors } },
      },
      '/invoice/{id}/pdf-link': { parameters: [idParam('id')], get: { summary: 'Presigned PDF link', responses: { 200: json({ type: 'object', properties: { url: { type: 'string' }, filename: { type: 'string' } } }), 409: problem, ...errors } } },
      '/invoice/{id}/xml-link': { parameters: [idParam('id')], get: { summary: 'Presigned e-invoice XML link', responses: { 200: json({ type: 'object', properties: { url: { type: 'string' }, filename: { type: 'string' } } }), 409: problem, ...errors } } },
      '/invoice/{id}/validate': { parameters: [idParam('id')], get: { summary: 'Check whether the invoice can be finalized', responses: { 200: json({ type: 'object' }), ...errors } } },
      '/invoice/{id}/preview': { parameters: [idParam('id')], get: { summary: 'Draft PDF preview (raw bytes)', responses: { 200: { description: 'PDF', content: { 'application/pdf': {} } }, ...errors } } },
      '/invoice/{id}/cancel': { parameters: [idParam('id')], post: { summary: 'Cancel a draft (irreversible)', responses: { 200: json({ type: 'object' }), 409: problem, ...errors } } },
      '/invoice/tax-treatments': { get: { summary: 'Tax treatments with labels', parameters: [{ name: 'locale', in: 'query', schema: { enum: ['en', 'de'] } }], responses: { 200: json({ type: 'array' }) } } },
      '/invoice/{id}/duplicate': { parameters: [idParam('id')], post: { summary: 'Copy an invoice into a new draft', responses: { 201: created('invoice_id'), ...errors } } },
      '/invoice/{id}/credit-note': { parameters: [idParam('id')], post: { summary: 'Credit note (type 381) for a finalized invoice, as a new draft', responses: { 201: created('invoice_id'), 409: problem, ...errors } } },
      '/invoice/{id}/positions/reorder': { parameters: [idParam('id')], put: { summary: 'Reorder positions (array of all position ids)', requestBody: { required: true, content: { 'application/json': { schema: { type: 'array', items: { type: 'integer' } } } } }, responses: { 200: json({ type: 'object' }), ...errors } } },
      '/template/': { get: { summary: 'List templates', responses: { 200: json({ type: 'array' }) } } },
      '/template/{id}': { parameters: [idParam('id')], get: { summary: 'Get a template', responses: { 200: json({ type: 'object' }), ...errors } } },
      '/company/': { get: { summary: 'Company profile (the seller on invoices)', responses: { 200: json({ type: 'object' }), ...errors } } },
      '/company/api-keys': {
        get: { summary: 'API keys (name, prefix, created, last used; never the key)', responses: { 200: json({ type: 'object' }), ...errors } },
        post: { summary: 'Create an API key (at most 10 active); the key is shown once', requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } } }, responses: { 201: json({ type: 'object' }), 409: problem, ...errors } },
      },
      '/company/api-keys/{key_id}': { parameters: [{ name: 'key_id', in: 'path', required: true, schema: { type: 'string' } }], delete: { summary: 'Revoke an API key (immediately)', responses: { 200: json({ type: 'object' }), ...errors } } },
      '/quota/': { get: { summary: 'Finalizations used this month, the plan limit and the reset date', responses: { 200: json({ type: 'object', properties: { used: { type: 'integer' }, limit: { type: 'integer' }, reset_date: { type: 'string' }, plan: { type: 'string' } } }), ...errors } } },
      '/acctexp/config': {
        get: { summary: 'Accounting export configuration (also at /datev/config)', responses: { 200: json({ type: 'object' }), ...errors } },
        put: { summary: 'Update the accounting export configuration', requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { consultant_number: { type: 'integer' }, client_number: { type: 'integer' }, chart_of_accounts: { enum: ['SKR03', 'SKR04'] }, fiscal_year_start_month: { type: 'integer', minimum: 1, maximum: 12 } } } } } }, responses: { 200: json({ type: 'object' }), ...errors } },
      },
    },
  };
  Object.assign(document.components.schemas, named);
  return document;
}
