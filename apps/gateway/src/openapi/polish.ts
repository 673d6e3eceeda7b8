/**
 * The last pass over the generated OpenAPI document, so the reference reads like one written by hand:
 * - zod's bounds of a safe integer (±9007199254740991) are dropped: they say nothing a client needs;
 * - regular expressions zod derives from a `format` (date, e-mail, uuid, …) are dropped, the format says it;
 * - every schema, parameter, header and request/response body gets an example: the contract's own
 *   (`.meta({ example })`) first, otherwise a realistic value chosen by field name (ids like 42, invoice
 *   numbers like RE-2026-00042, dates, amounts), composed into whole objects;
 * - optional query parameters carry their example as an OpenAPI `examples` entry marked `x-disabled`, so the
 *   reference's try-it shows it without sending it: a list answers unfiltered until a filter is switched on.
 */

type Schema = Record<string, unknown>;
const SAFE = Number.MAX_SAFE_INTEGER;
const PRIMITIVES = ['string', 'integer', 'number', 'boolean'];
const TIMESTAMP = '2026-11-21T09:30:00Z';
const DATE = '2026-11-21';
const UUID = '5f0c2a8e-3b1d-4c7a-9e6f-2d8b4a1c7e30';
/** A file part of a multipart body (the reference's try-it offers a file picker for it). */
const BINARY = '<the file>';
const HASH = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';

/** Examples by field name, for fields whose contract gives none. */
const BY_NAME: Record<string, unknown> = {
  id: 42,
  customer_id: 42,
  invoice_id: 1042,
  preceding_invoice_id: 1041,
  position_id: 3,
  address_id: 7,
  attachment_id: 5,
  product_id: 12,
  payment_term_id: 2,
  default_payment_term_id: 2,
  ftl_template_id: 1,
  default_ftl_template_id: 1,
  default_template_id: 1,
  customer_number: 10042,
  account: 8400,
  receivables_account: 1400,
  collective_debtor_account: 10000,
  account_length: 4,
  days: 14,
  consultant_number: 1001,
  total: 137,
  codice_destinatario: 'M5UXCR1',
  pec: 'fatture@pec.rossi.it',
  codice_fiscale: 'RSSMRA85T10A562S',
  partita_iva: '01234567897',
  address: 'Hauptstraße 5, 80331 München',
  consultation_number: 'WAPIAAAAY2sLvCw6',
  fault: 'MS_MAX_CONCURRENT_REQ',
  key_name: 'ERP production',
  client_ip: '203.0.113.7',
  next_cursor: 'eyJzZXEiOjE2fQ',
  fields: 'vat_id',
  meta: 'ERP order 4711',
  reason: 'hash of entry 17 does not match',
  attachments: 'RE-2026-00042.pdf',
  error: '550 5.1.1 mailbox unavailable',
  task: 'process_invoice_flag_invoice_send_job',
  split_reason: 'year_boundary',
  payment_method: 'SEPA credit transfer',
  checks: 'BR-CO-26',
  page: 1,
  limit: 25,
  'X-Total-Count': 137,
  payment_term_days: 14,
  count: 3,
  invoice_count: 3,
  position_count: 3,
  total_invoice_count: 12,
  entries: 12,
  size: 48213,
  width: 709,
  height: 260,
  progress: 100,
  seq: 17,
  first_invalid_seq: 17,
  next_value: 43,
  used: 12,
  expires_in: 300,
  wait: 20,
  amount: 119,
  net_amount: 1000,
  gross_amount: 1190,
  tax_amount: 190,
  amount_due: 1190,
  balance: 1190,
  opening_balance: 0,
  closing_balance: 1190,
  credit: 0,
  debit: 1190,
  discount_value: 10,
  quantity: 10,
  single_net_amount: 1000,
  unit_net_amount: 100,
  tax_rate: 0.19,
  confidence: 0.9,
  percent: 2,
  account_holder: 'Beispiel Software GmbH',
  action: 'invoice.finalized',
  address_line_1: 'Hauptstraße 5',
  address_line_2: 'Rückgebäude',
  line1: 'Hauptstraße 5',
  line2: 'Rückgebäude',
  bank_name: 'Commerzbank',
  bcc: 'archiv@beispiel.example',
  cc: 'einkauf@kunde.example',
  bic: 'COBADEFFXXX',
  body: 'Sehr geehrte Damen und Herren,\n\nim Anhang erhalten Sie die Rechnung {invoice_number}.',
  buyer_reference: '04011000-12345-03',
  city: 'München',
  company: 'Beispiel Software GmbH',
  contact_name: 'Erika Mustermann',
  content_type: 'application/pdf',
  country_code: 'DE',
  description: 'Beratung vor Ort, November 2026',
  detail: 'invalid request: quantity: required',
  document_number: 'RE-2026-00042',
  email: 'buchhaltung@kunde.example',
  error_message: '550 5.1.1 mailbox unavailable',
  field: 'customer.vat_id',
  filename: 'RE-2026-00042.pdf',
  first_name: 'Erika',
  last_name: 'Mustermann',
  hash: HASH,
  prev_hash: HASH,
  sha256: HASH,
  iban: 'DE89370400440532013000',
  ibans: 'DE89370400440532013000',
  peppol_id: '0192:987654325',
  iban_formatted: 'DE89 3704 0044 0532 0130 00',
  invoice_number: 'RE-2026-00042',
  next_number: 'RE-2026-00043',
  key: 'inv_live_3kq9Zt7wXbP2mR8vN4yL6cJ1',
  label: 'Erlöse 19 % USt',
  legal_name: 'Beispiel Software GmbH',
  trading_name: 'Beispiel Software',
  organization_name: 'Kunde AG',
  managing_directors: 'Erika Mustermann',
  message: 'OK',
  name: 'Beispiel Software GmbH',
  note: 'Leistungszeitraum November 2026',
  path: 'quantity',
  pattern: 'RE-{YYYY}-{SEQ:5}',
  payment_reference: 'RE-2026-00042',
  phone: '+49 89 1234567',
  placeholders: '{invoice_number}',
  postal_code: '80331',
  prefix: 'inv_live_3kq9',
  q: 'Kunde',
  registration_court: 'Amtsgericht München',
  registration_id: 'HRB 12345',
  registration_id_scheme: '0106',
  seller_identifier: '4000001000005',
  seller_identifier_scheme: '0088',
  resource_type: 'invoice',
  role: 'admin',
  rule: 'BR-CO-26',
  sku: 'BER-H',
  state_province: 'Bayern',
  subject: 'Rechnung RE-2026-00042',
  tax_number: '143/123/45678',
  tax_treatment: 'standard',
  text_de: 'Zahlbar innerhalb von {days} Tagen bis {due_date}.',
  text_en: 'Payable within {days} days, by {due_date}.',
  title: 'Beratung (Stunden)',
  to: 'buchhaltung@kunde.example',
  type: '/api/v1/problems/validation-error',
  unit_id: 'HUR',
  url: 'https://files.invoicing.example/invoices/RE-2026-00042.pdf?X-Amz-Expires=300&X-Amz-Signature=3f1c',
  vat_category: 'S',
  vat_id: 'DE143454214',
  website: 'https://www.beispiel.example',
};

/** Where a field name means different things in different schemas. */
const BY_SCHEMA_FIELD: Record<string, unknown> = {
  'Product.name': 'Beratung (Stunde)',
  'ProductInput.name': 'Beratung (Stunde)',
  'ProductUpdate.name': 'Beratung (Stunde)',
  'ApiKey.name': 'ERP production',
  'ApiKeyCreate.name': 'ERP production',
  'CreatedApiKey.name': 'ERP production',
  'PaymentTerm.name': '14 Tage netto',
  'PaymentTermInput.name': '14 Tage netto',
  'PaymentTermUpdate.name': '14 Tage netto',
  'Template.name': 'Standard',
  'Member.name': 'Erika Mustermann',
  'ApiKey.id': UUID,
  'Member.id': UUID,
  'ExportJob.task': 'process_acctexp_export_job',
  'Problem.status': 400,
  'QuotaProblem.status': 402,
  'UnprocessableProblem.status': 422,
};

const typeOf = (s: Schema): string | undefined =>
  typeof s.type === 'string' ? s.type : Array.isArray(s.type) ? (s.type as string[]).find((t) => t !== 'null') : undefined;
const hasExample = (s: Schema) => s.example !== undefined || Array.isArray(s.examples);

/** A realistic value for a primitive schema named `name` (within the component `owner`). */
function primitiveExample(s: Schema, name: string, owner: string): unknown {
  const type = typeOf(s);
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  const fits = (v: unknown) =>
    v !== undefined &&
    (type === 'string' ? typeof v === 'string' : type === 'boolean' ? typeof v === 'boolean' : typeof v === 'number') &&
    (type !== 'integer' || Number.isInteger(v));
  const specific = BY_SCHEMA_FIELD[`${owner}.${name}`];
  if (fits(specific)) return specific;
  if (type === 'string') {
    if (s.format === 'date') return DATE;
    if (s.format === 'date-time') return TIMESTAMP;
    if (s.format === 'email') return BY_NAME.email;
    if (s.format === 'uuid') return UUID;
    if (s.format === 'uri' || s.format === 'url') return BY_NAME.website;
    if (s.format === 'binary') return BINARY;
  }
  const named = BY_NAME[name];
  if (fits(named)) return named;
  switch (type) {
    case 'string':
      if (/(_at|^at)$/.test(name)) return TIMESTAMP;
      if (/(^|_)(date|from|to|start|end)$/.test(name)) return DATE;
      if (/(^|_)id$/.test(name)) return UUID;
      if (s.pattern === '^[A-Za-z]{2}$' || s.pattern === '^[A-Z]{2}$') return 'DE';
      return 'Beispiel';
    case 'integer': {
      if (/_ids?$/.test(name)) return 7;
      const min = typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : 1;
      return Math.max(min, 1);
    }
    case 'number':
      return 100;
    case 'boolean':
      return /^(is_active|is_default|active|valid|attach_pdf)$/.test(name);
  }
  return undefined;
}

/** Cleans a schema in place (bounds, derived patterns) and gives its primitive parts examples. */
function polishSchema(s: unknown, name: string, owner: string, inner = false): void {
  if (!s || typeof s !== 'object' || Array.isArray(s)) return;
  const schema = s as Schema;
  if (schema.maximum === SAFE) delete schema.maximum;
  if (schema.minimum === -SAFE) delete schema.minimum;
  if (typeof schema.pattern === 'string' && typeof schema.format === 'string' && schema.format !== 'binary') delete schema.pattern;
  if ((schema.pattern === '^[A-Za-z]{2}$' || schema.pattern === '^[A-Z]{2}$') && !schema.description)
    schema.description = 'ISO 3166-1 alpha-2 country code';
  const type = typeOf(schema);
  const primitive = type !== undefined && PRIMITIVES.includes(type);
  if (primitive && !inner && !hasExample(schema)) {
    const example = primitiveExample(schema, name, owner);
    if (example !== undefined) schema.example = example;
  }
  if (schema.properties && typeof schema.properties === 'object')
    for (const [key, value] of Object.entries(schema.properties as Record<string, unknown>)) polishSchema(value, key, owner);
  for (const key of ['items', 'additionalProperties', 'not'] as const) polishSchema(schema[key], name, owner);
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const)
    if (Array.isArray(schema[key])) for (const part of schema[key] as unknown[]) polishSchema(part, name, owner, inner || primitive);
}

/** An example of a whole schema, composed from its parts' examples ($refs resolved, cycles cut). */
function composeExample(s: unknown, components: Record<string, Schema>, seen: string[] = [], requiredOnly = false): unknown {
  if (!s || typeof s !== 'object') return undefined;
  const schema = s as Schema;
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace('#/components/schemas/', '');
    if (seen.includes(name) || !components[name]) return undefined;
    return composeExample(components[name], components, [...seen, name], requiredOnly);
  }
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(schema[key])) {
      const parts = (schema[key] as Schema[]).filter((p) => p.type !== 'null');
      const part = parts.find((p) => p.$ref || p.type === 'object') ?? parts[0];
      return composeExample(part, components, seen, requiredOnly);
    }
  }
  if (Array.isArray(schema.allOf)) {
    const parts = (schema.allOf as unknown[]).map((p) => composeExample(p, components, seen, requiredOnly));
    return Object.assign({}, ...parts.filter((p) => p && typeof p === 'object'));
  }
  const type = typeOf(schema);
  if (type === 'array') {
    const item = composeExample(schema.items, components, seen);
    return item === undefined ? [] : [item];
  }
  if (type === 'object' || schema.properties) {
    const required = new Set((schema.required as string[] | undefined) ?? []);
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries((schema.properties ?? {}) as Record<string, unknown>)) {
      if (requiredOnly && !required.has(key)) continue;
      const example = composeExample(value, components, seen);
      if (example !== undefined) out[key] = example;
    }
    return out;
  }
  return undefined;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
  example?: unknown;
  examples?: unknown;
}

function polishParameter(p: Parameter): void {
  if (p.example !== undefined || p.examples !== undefined) return; // done (parameter objects are shared)
  polishSchema(p.schema, p.name, '');
  const example = p.schema?.example ?? (p.schema ? composeExample(p.schema, {}) : undefined);
  if (example === undefined) return;
  delete p.schema?.example; // the parameter's own example (the reference shows both otherwise)
  if (p.in === 'query' && !p.required) {
    // shown in the reference, not sent by its try-it until switched on (Scalar reads x-disabled)
    p.examples = { example: { summary: 'example', value: example, 'x-disabled': true } };
  } else {
    p.example = example;
  }
}

type Media = { schema?: Schema; example?: unknown; examples?: unknown };

/** Polishes the document in place and answers it. */
export function polishDocument<T extends { paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } }>(doc: T): T {
  const components = doc.components.schemas as Record<string, Schema>;
  for (const [name, schema] of Object.entries(components)) polishSchema(schema, name, name);
  for (const [name, schema] of Object.entries(components)) {
    if (hasExample(schema)) continue;
    const example = composeExample(schema, components, [name]);
    if (example !== undefined) schema.example = example;
  }
  // the 3.1 `webhooks` section (requests we send) is polished like the paths
  const webhooks = (doc as { webhooks?: Record<string, unknown> }).webhooks ?? {};
  for (const item of [...Object.values(doc.paths), ...Object.values(webhooks)] as Record<string, unknown>[]) {
    for (const p of (item.parameters as Parameter[] | undefined) ?? []) polishParameter(p);
    for (const method of ['get', 'put', 'post', 'delete', 'patch'] as const) {
      const op = item[method] as Record<string, unknown> | undefined;
      if (!op) continue;
      for (const p of (op.parameters as Parameter[] | undefined) ?? []) polishParameter(p);
      const request = op.requestBody as { content?: Record<string, Media> } | undefined;
      for (const media of Object.values(request?.content ?? {})) {
        polishSchema(media.schema, '', '');
        if (media.example !== undefined || media.examples !== undefined || !media.schema) continue;
        const required = composeExample(media.schema, components, [], true);
        const full = composeExample(media.schema, components);
        const example = required && typeof required === 'object' && Object.keys(required).length > 0 ? required : full;
        if (
          example !== undefined &&
          !(typeof example === 'object' && example && Object.keys(example).length === 0 && !Array.isArray(example))
        )
          media.example = example;
      }
      for (const response of Object.values((op.responses ?? {}) as Record<string, Record<string, unknown>>)) {
        for (const [name, header] of Object.entries((response.headers ?? {}) as Record<string, Parameter>)) {
          polishSchema(header.schema, name, '');
          if (header.example === undefined && header.schema?.example !== undefined) header.example = header.schema.example;
        }
        for (const media of Object.values((response.content ?? {}) as Record<string, Media>)) {
          polishSchema(media.schema, '', '');
          if (media.example !== undefined || media.examples !== undefined || !media.schema || media.schema.$ref) continue;
          const example = composeExample(media.schema, components);
          if (example !== undefined) media.example = example;
        }
      }
    }
  }
  return doc;
}
