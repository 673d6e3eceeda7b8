import type { z } from 'zod';

/**
 * Existing client SDKs send every optional field, as JSON null when unset: null means "not given".
 * Drops null members from plain objects (recursively) so schemas see them as absent. Arrays keep their
 * entries (a null inside an array is data, not an omitted field).
 */
export function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = dropNulls(v);
    return out;
  }
  return value;
}

/** Parses a request payload with its contract schema; throws ZodError (-> 400 with `errors`). */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  return schema.parse(dropNulls(input ?? {}));
}
