import type { z } from 'zod';
import { AppError, type FieldError } from './errors';
import { listedText, MAX_LISTED_ERRORS, validationError, zodFieldErrors } from './problem';
import { unknownFieldError, unknownFields } from './unknown-fields';

/**
 * Existing client SDKs send every optional field, as JSON null when unset: null means "not given".
 * Drops null members from plain objects (recursively) so schemas see them as absent. Arrays keep their
 * entries (a null inside an array is data, not an omitted field).
 */
export function dropNulls(value: unknown, depth = 0): unknown {
  // JSON bodies are depth-checked before parsing (MAX_JSON_DEPTH); this bound keeps any other caller safe.
  if (depth > MAX_JSON_DEPTH)
    throw new AppError('invalid_data', `nesting deeper than ${MAX_JSON_DEPTH} levels`, { code: 'NESTING_TOO_DEEP' });
  if (Array.isArray(value)) return value.map((v) => dropNulls(v, depth + 1));
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = dropNulls(v, depth + 1);
    return out;
  }
  return value;
}

/** Deepest nesting of objects and arrays a JSON body may have. */
export const MAX_JSON_DEPTH = 64;

/**
 * Depth of the JSON text's nesting, counted on the raw bytes before JSON.parse (so a body nested 10,000
 * deep costs one linear scan and no recursion). Returns as soon as `limit` is exceeded.
 */
export function jsonDepthExceeds(buf: Uint8Array, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < buf.length; i++) {
    const c = buf[i];
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped byte
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * A partial update (PUT of some fields) of a resource the published SDK never writes: JSON Merge Patch
 * semantics (RFC 7396), so an absent field stays and `null` removes the value of a field the contract marks
 * nullable (a null for any other field is a 400 naming it). Throws a 400 VALIDATION_ERROR naming each field.
 */
export function parsePatch<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const body = input ?? {};
  const parse = () =>
    schema.safeParse(body, { error: (iss) => (iss.code === 'invalid_type' && iss.input === null ? NOT_REMOVABLE : undefined) });
  refuseUnknownFields(schema, body, parse);
  const result = parse();
  if (!result.success) throw validationError(result.error, body);
  return result.data;
}

/** A merge-patch null for a field that cannot be removed (required, or no "unset" state). */
const NOT_REMOVABLE = 'cannot be removed (null); send a value or leave the field out';

/**
 * Parses a request payload with its contract schema; throws a 400 VALIDATION_ERROR naming each field. A member the
 * contract does not know answers 400 UNKNOWN_FIELD (see refuseUnknownFields); a null member counts as absent.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const body = dropNulls(input ?? {});
  refuseUnknownFields(schema, body, () => schema.safeParse(body));
  const result = schema.safeParse(body);
  if (!result.success) throw validationError(result.error, body);
  return result.data;
}

/**
 * Throws 400 UNKNOWN_FIELD when the body has members its contract does not know (nested too), each named in
 * `errors` with a suggestion where a known field is close; the body's other problems (from `check`) follow,
 * so one answer lists everything. Records and passthrough objects of a contract stay open.
 */
export function refuseUnknownFields(schema: z.ZodType, body: unknown, check?: () => { success: boolean; error?: z.ZodError }): void {
  const unknown = unknownFields(schema, body);
  if (!unknown.length) return;
  // suggestions cost edit distances: worked out for the ones an answer lists only (toProblem lists MAX_LISTED_ERRORS
  // and counts the rest in errors_total)
  const errors: FieldError[] = unknown.map((f, i) =>
    i < MAX_LISTED_ERRORS ? unknownFieldError(f) : { path: f.path, in: 'body', message: 'unknown field' },
  );
  // the body's other problems follow, unless the unknown fields alone fill the list already
  const result = unknown.length < MAX_LISTED_ERRORS ? check?.() : undefined;
  if (result && !result.success && result.error) {
    const named = new Set(errors.map((e) => e.path));
    for (const e of zodFieldErrors(result.error, body)) if (!named.has(e.path)) errors.push({ ...e, in: 'body' });
  }
  const names = unknown.slice(0, MAX_LISTED_ERRORS).map((f) => (f.suggestion ? `${f.path} (did you mean ${f.suggestion}?)` : f.path));
  const more = unknown.length > MAX_LISTED_ERRORS ? `, and ${unknown.length - MAX_LISTED_ERRORS} more` : '';
  throw new AppError('invalid_data', `unknown field${unknown.length > 1 ? 's' : ''} in the request body: ${names.join(', ')}${more}`, {
    code: 'UNKNOWN_FIELD',
    errors,
  });
}

type Location = 'path' | 'query' | 'body';

/** A ZodError of one request part as field errors that name the part (`in`) and the parameter or field. */
function locatedErrors(err: z.ZodError, input: unknown, location: Location, name?: string): FieldError[] {
  return zodFieldErrors(err, input).map((e) => ({
    ...e,
    path: name && e.path === '(body)' ? name : e.path === '(body)' ? location : e.path,
    in: location,
  }));
}

function parseLocated<S extends z.ZodType>(schema: S, input: unknown, location: Location, name?: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const errors = locatedErrors(result.error, input, location, name);
  throw new AppError(
    'invalid_data',
    `invalid ${location === 'path' ? 'path parameter' : location === 'query' ? 'query parameter' : 'request body'}: ${listedText(
      errors.map((e) => `${e.path}: ${e.message}`),
      '; ',
    )}`,
    {
      code: 'VALIDATION_ERROR',
      errors,
    },
  );
}

/** Parses one path parameter (`/invoice/:id` -> parsePath(IntId, req.params, 'id')); errors name it. */
export function parsePath<S extends z.ZodType>(schema: S, params: Record<string, unknown>, name: string): z.output<S> {
  return parseLocated(schema, params[name], 'path', name);
}

/**
 * Parses the query string with its contract schema; errors name the query parameter. A parameter the route does not
 * take answers 400 UNKNOWN_FIELD (`in: query`, "did you mean …?" where a known one is close) instead of being ignored.
 */
export function parseQuery<S extends z.ZodType>(schema: S, query: unknown): z.output<S> {
  const input = dropNulls(query ?? {});
  refuseUnknownQueryParameters(unknownFields(schema, input));
  return parseLocated(schema, input, 'query');
}

/** 400 UNKNOWN_FIELD for query parameters a route does not take (`unknown`: from unknownFields or the gateway's table). */
export function refuseUnknownQueryParameters(unknown: { path: string; suggestion?: string; known: string[] }[]): void {
  if (!unknown.length) return;
  const errors: FieldError[] = unknown.map((f, i) =>
    i >= MAX_LISTED_ERRORS
      ? { path: f.path, in: 'query', message: 'unknown query parameter' }
      : {
          path: f.path,
          in: 'query',
          message: f.suggestion
            ? `unknown query parameter; did you mean ${f.suggestion}?`
            : f.known.length
              ? `unknown query parameter; this operation takes ${f.known.join(', ')}`
              : 'unknown query parameter; this operation takes none',
        },
  );
  const names = unknown.slice(0, MAX_LISTED_ERRORS).map((f) => (f.suggestion ? `${f.path} (did you mean ${f.suggestion}?)` : f.path));
  const more = unknown.length > MAX_LISTED_ERRORS ? `, and ${unknown.length - MAX_LISTED_ERRORS} more` : '';
  throw new AppError('invalid_data', `unknown query parameter${unknown.length > 1 ? 's' : ''}: ${names.join(', ')}${more}`, {
    code: 'UNKNOWN_FIELD',
    errors,
  });
}
