import { z } from 'zod';
import { ProblemBody, QuotaProblem, UnprocessableProblem } from '@inv/contracts';

/**
 * Helpers that turn zod contracts into OpenAPI 3.1 operations. Named schemas (zod `.meta({ id })`) are
 * collected into components.schemas; request schemas are rendered as the client sends them (io: input)
 * with every optional field nullable (the published SDK sends null for "not given"), responses as the
 * service answers (io: output).
 */
export const components: Record<string, unknown> = {};

function toJson(s: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const json = z.toJSONSchema(s, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  const text = JSON.stringify(json).replace(/"#\/\$defs\/([^"]+)"/g, '"#/components/schemas/$1"');
  const { $defs, $schema: _drop, ...rest } = JSON.parse(text) as { $defs?: Record<string, unknown>; $schema?: string };
  // named schemas (also a named top-level one, which zod answers as a $ref into $defs)
  for (const [name, def] of Object.entries($defs ?? {})) components[name] = io === 'input' ? nullableOptionals(def) : def;
  return io === 'input' ? nullableOptionals(rest) : rest;
}

/** Optional properties of request objects also accept null (null means "not given"). */
function nullableOptionals(schema: unknown): Record<string, unknown> {
  const s = schema as Record<string, unknown>;
  if (!s || typeof s !== 'object') return s;
  if (s.type === 'object' && s.properties) {
    const required = new Set((s.required as string[] | undefined) ?? []);
    const properties: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(s.properties as Record<string, Record<string, unknown>>)) {
      properties[k] = required.has(k) ? v : { anyOf: [v, { type: 'null' }], ...(v.description ? { description: v.description } : {}) };
    }
    return { ...s, properties };
  }
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    if (Array.isArray(s[key])) return { ...s, [key]: (s[key] as unknown[]).map(nullableOptionals) };
  }
  return s;
}

export const requestSchema = (s: z.ZodType) => toJson(s, 'input');
export const responseSchema = (s: z.ZodType) => toJson(s, 'output');

const problemContent = (s: z.ZodType) => ({ 'application/problem+json': { schema: responseSchema(s) } });
export const problem = (description: string, s: z.ZodType = ProblemBody) => ({ description, content: problemContent(s) });

/** The error answers every authenticated operation can give. */
export const commonErrors = () => ({
  400: problem('invalid path or query parameter, or body (VALIDATION_ERROR, MALFORMED_PATH, MALFORMED_JSON, NESTING_TOO_DEEP)'),
  401: problem('missing, unknown or revoked API key (UNAUTHENTICATED)'),
  403: problem('the role of the key lacks the permission this route needs (FORBIDDEN; `missing_permission` names it)'),
  408: problem('the request body did not arrive within 30 s (BODY_TIMEOUT)'),
  429: problem(
    'rate limit (RATE_LIMITED), too many requests of the company in progress (TOO_MANY_CONCURRENT_REQUESTS) or too many failed authentications; see Retry-After and the RateLimit headers',
  ),
  500: problem('a bug on our side; quote error_id'),
  503: problem('a service is temporarily unavailable (SERVICE_UNAVAILABLE) or busy (SERVICE_BUSY); retry after Retry-After'),
});
export const notFound = () => ({ 404: problem("no such resource (another company's ids too)") });
export const conflict = (what: string) => ({ 409: problem(what) });
export const quotaProblem = () => ({
  402: problem('monthly quota used up (INVOICE_LIMIT_REACHED); usage at the top level and under usage', QuotaProblem),
});
export const unprocessable = (what: string) => ({ 422: problem(what, UnprocessableProblem) });
export const bodyErrors = () => ({
  413: problem('body over 1 MiB (PAYLOAD_TOO_LARGE)'),
  415: problem('body is not application/json (UNSUPPORTED_MEDIA_TYPE)'),
});

export const json = (s: z.ZodType, description = 'OK', headers?: Record<string, unknown>) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema: responseSchema(s) } },
});

/** An answer with its schema and a real example. */
export const jsonExample = (s: z.ZodType, example: unknown, description = 'OK', headers?: Record<string, unknown>) => {
  const answer = json(s, description, headers);
  return { ...answer, content: { 'application/json': { ...answer.content['application/json'], example } } };
};

export const paginationHeaders = {
  'X-Total-Count': { description: 'number of matching records', schema: { type: 'integer' } },
  Link: {
    description: 'RFC 8288 links: first, prev, next, last',
    schema: { type: 'string' },
    example: '</api/v1/customer/?page=2&limit=25>; rel="next"',
  },
};

export const intId = (name: string, description = 'id') => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'integer', minimum: 1, maximum: 2147483647 },
});
export const strId = (name: string, description = 'id') => ({ name, in: 'path', required: true, description, schema: { type: 'string' } });

/** Query parameters from a zod object schema (each property one parameter). */
export function queryParams(s: z.ZodType): Record<string, unknown>[] {
  type ObjectSchema = {
    $ref?: string;
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
    $defs?: Record<string, Record<string, unknown>>;
  };
  const top = z.toJSONSchema(s, {
    io: 'input',
    unrepresentable: 'any',
    // zod leaves out the default of a field whose schema transforms its input (a language: de, German, EN…)
    override: (ctx) => {
      const def = (ctx.zodSchema as unknown as { _zod: { def: { type: string; defaultValue?: unknown } } })._zod.def;
      if (def.type === 'default' && ctx.jsonSchema.default === undefined && typeof def.defaultValue !== 'function')
        ctx.jsonSchema.default = def.defaultValue as never;
    },
  }) as ObjectSchema;
  const defs = top.$defs ?? {};
  // a query schema with an id of its own (AuditLogQuery) comes out as a $ref to its definition
  const json = (top.$ref?.startsWith('#/$defs/') ? defs[top.$ref.slice('#/$defs/'.length)] : top) as ObjectSchema;
  return Object.entries(json.properties ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: (json.required ?? []).includes(name),
    ...(schema.description ? { description: schema.description } : {}),
    schema: inlineDefs(schema, defs),
  }));
}

/**
 * A parameter's schema stands alone in the document: a query field whose schema has an id (a named enum) comes out of
 * zod as a `$ref` into the object's own `$defs`, which a parameter does not carry. The definition is put in its place
 * (the field's own description and default win).
 */
function inlineDefs(schema: unknown, defs: Record<string, Record<string, unknown>>): unknown {
  if (Array.isArray(schema)) return schema.map((v) => inlineDefs(v, defs));
  if (!schema || typeof schema !== 'object') return schema;
  const { $ref, ...rest } = schema as Record<string, unknown>;
  const inner = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, inlineDefs(v, defs)]));
  const target = typeof $ref === 'string' && $ref.startsWith('#/$defs/') ? defs[$ref.slice('#/$defs/'.length)] : undefined;
  if (!target) return $ref === undefined ? inner : { $ref, ...inner };
  return { ...(inlineDefs(target, defs) as Record<string, unknown>), ...inner };
}

export interface Operation {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  parameters?: unknown[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
  security?: unknown[];
  'x-available'?: boolean;
}

export const body = (s: z.ZodType, example?: unknown) => ({
  required: true,
  content: { 'application/json': { schema: requestSchema(s), ...(example === undefined ? {} : { example }) } },
});

/** An operation of the spec that this release does not serve yet: documented so clients can plan, marked. */
export const planned = (op: Omit<Operation, 'responses'> & { responses?: Record<string, unknown>; answers?: 404 | 503 }): Operation => {
  const { answers = 404, ...rest } = op;
  return {
    ...rest,
    description: `${rest.description ? `${rest.description}\n\n` : ''}**Not available in this release**: the path answers ${answers === 503 ? '503 NOT_IMPLEMENTED' : '404'} until it ships (see the changelog).`,
    'x-available': false,
    responses: op.responses ?? { [answers]: problem('not available in this release') },
  };
};
