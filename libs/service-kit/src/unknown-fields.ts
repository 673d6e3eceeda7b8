import type { z } from 'zod';
import type { FieldError } from './errors';

/**
 * Unknown body fields: walks a zod schema alongside the input and collects every member of an object that
 * the schema does not know, nested too (`address.postcode`, `positions.0.tax_rat`). One mechanism for every
 * contract, instead of `.strict()` on each schema (which would also close the ones that must stay open).
 *
 * Open by design: `z.record(...)` (free `meta` objects), objects with a catchall (`.passthrough()`,
 * `.loose()`, `.catchall()`), `z.any()`/`z.unknown()`. Transforms are looked through on their input side.
 * Unions take the option that knows the input best (a discriminated union the option its discriminator
 * names), so a misspelt field inside one variant is still reported.
 */

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  element?: z.ZodType;
  items?: z.ZodType[];
  rest?: z.ZodType | null;
  options?: z.ZodType[];
  discriminator?: string;
  valueType?: z.ZodType;
  left?: z.ZodType;
  right?: z.ZodType;
  getter?: () => z.ZodType;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional', 'success']);

/** The schema under optional/nullable/default/… wrappers, lazy getters and transforms (their input side). */
function unwrap(schema: z.ZodType, depth = 0): z.ZodType {
  if (depth > 32) return schema;
  const def = defOf(schema);
  if (WRAPPERS.has(def.type) && def.innerType) return unwrap(def.innerType, depth + 1);
  if (def.type === 'lazy' && def.getter) return unwrap(def.getter(), depth + 1);
  if (def.type === 'pipe' && def.in && def.out) {
    // z.preprocess(fn, schema) is pipe(transform, schema): the input is checked by its output side
    return unwrap(defOf(def.in).type === 'transform' ? def.out : def.in, depth + 1);
  }
  return schema;
}

/** The keys an object schema knows (after unwrapping), or undefined when the schema is not a closed object. */
function shapeOf(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  const def = defOf(unwrap(schema));
  return def.type === 'object' && def.shape ? def.shape : undefined;
}

export interface UnknownField {
  /** Dotted path of the unknown member (`positions.0.tax_rat`). */
  path: string;
  /** The closest known field at that level (`tax_rate`, or `discount.percent` for a flattened `discount_percent`). */
  suggestion?: string;
  /** The fields known at that level. */
  known: string[];
}

/**
 * An unknown member whose suggestion and known fields are worked out when read: a body of 50,000 unknown keys
 * costs one entry each, and only the few listed in the answer pay for the edit distances (seconds of CPU before).
 */
function unknownField(path: string, key: string, shape: Record<string, z.ZodType>): UnknownField {
  let suggestion: { value: string | undefined } | undefined;
  let known: string[] | undefined;
  return {
    path,
    get suggestion() {
      suggestion ??= { value: suggestField(key, shape) };
      return suggestion.value;
    },
    get known() {
      known ??= Object.keys(shape);
      return known;
    },
  };
}

function walk(schema: z.ZodType, input: unknown, path: (string | number)[], out: UnknownField[], depth: number): void {
  if (depth > 64) return;
  const s = unwrap(schema);
  const def = defOf(s);
  switch (def.type) {
    case 'object': {
      if (!isPlainObject(input) || !def.shape) return;
      const shape = def.shape;
      const open = def.catchall !== undefined && defOf(def.catchall).type !== 'never';
      for (const [key, value] of Object.entries(input)) {
        if (Object.prototype.hasOwnProperty.call(shape, key)) walk(shape[key]!, value, [...path, key], out, depth + 1);
        else if (open) walk(def.catchall!, value, [...path, key], out, depth + 1);
        else out.push(unknownField([...path, key].join('.'), key, shape));
      }
      return;
    }
    case 'record':
      if (isPlainObject(input) && def.valueType)
        for (const [k, v] of Object.entries(input)) walk(def.valueType, v, [...path, k], out, depth + 1);
      return;
    case 'array':
      if (Array.isArray(input) && def.element) input.forEach((v, i) => walk(def.element!, v, [...path, i], out, depth + 1));
      return;
    case 'tuple':
      if (Array.isArray(input))
        input.forEach((v, i) => {
          const item = def.items?.[i] ?? def.rest ?? undefined;
          if (item) walk(item, v, [...path, i], out, depth + 1);
        });
      return;
    case 'union': {
      const options = (def.options ?? []).filter((o) => fits(o, input));
      if (!options.length) return;
      let candidates = options;
      if (def.discriminator && isPlainObject(input) && input[def.discriminator] !== undefined) {
        const named = options.filter((o) => shapeOf(o)?.[def.discriminator!]?.safeParse(input[def.discriminator!]).success);
        if (named.length) candidates = named;
      }
      let best: UnknownField[] | undefined;
      for (const option of candidates) {
        const found: UnknownField[] = [];
        walk(option, input, path, found, depth + 1);
        if (!best || found.length < best.length) best = found;
        if (!found.length) break;
      }
      out.push(...(best ?? []));
      return;
    }
    case 'intersection': {
      // a member is unknown only when neither side knows it
      if (!def.left || !def.right) return;
      const left: UnknownField[] = [];
      const right: UnknownField[] = [];
      walk(def.left, input, path, left, depth + 1);
      walk(def.right, input, path, right, depth + 1);
      const inRight = new Set(right.map((f) => f.path));
      out.push(...left.filter((f) => inRight.has(f.path)));
      return;
    }
    default:
      return; // scalars, any/unknown (open), transforms without a visible input side
  }
}

/** Whether an option of a union could take this input at all (objects for objects, arrays for arrays). */
function fits(option: z.ZodType, input: unknown): boolean {
  const type = defOf(unwrap(option)).type;
  if (type === 'any' || type === 'unknown' || type === 'union' || type === 'intersection') return true;
  if (Array.isArray(input)) return type === 'array' || type === 'tuple';
  if (isPlainObject(input)) return type === 'object' || type === 'record';
  return false;
}

/** Every member of `input` the schema does not know, in input order. */
export function unknownFields(schema: z.ZodType, input: unknown): UnknownField[] {
  const out: UnknownField[] = [];
  walk(schema, input, [], out, 0);
  return out;
}

/** The error entry of an unknown field: "unknown field; did you mean tax_rate?" (or the known fields). */
export function unknownFieldError(f: UnknownField): FieldError {
  const known = f.known.length <= 30 ? `; known fields: ${f.known.join(', ')}` : '';
  return {
    path: f.path,
    in: 'body',
    message: f.suggestion ? `unknown field; did you mean ${f.suggestion}?` : `unknown field${f.known.length ? known : ''}`,
  };
}

const norm = (s: string) => s.toLowerCase().replace(/[_\-\s]/g, '');

/**
 * The known field a misspelt key most likely meant: the same name in another case or separator style
 * (`taxRate`), a flattened nested field (`discount_percent` -> `discount.percent`), a cut-off name
 * (`vat_override` -> `vat_override_confirmed`), or the closest name by
 * edit distance with transpositions counting once (`emial` -> `email`, `tax_rat` -> `tax_rate`).
 */
export function suggestField(key: string, shape: Record<string, z.ZodType>): string | undefined {
  const names = Object.keys(shape);
  const k = norm(key);
  const same = names.find((n) => norm(n) === k);
  if (same) return same;
  for (const n of names) {
    const nested = shapeOf(shape[n]!);
    if (!nested) continue;
    for (const sub of Object.keys(nested)) if (norm(`${n}${sub}`) === k) return `${n}.${sub}`;
  }
  const extended = k.length >= 4 ? names.filter((n) => norm(n).startsWith(k)) : [];
  if (extended.length === 1) return extended[0];
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const n of names) {
    const d = editDistance(k, norm(n));
    if (d < bestDistance) [best, bestDistance] = [n, d];
  }
  // one edit from 3 characters on, two from 6, three from 9 (a 1- or 2-letter key is close to anything)
  const allowed = k.length < 3 ? 0 : Math.max(1, Math.min(3, Math.floor(k.length / 3)));
  return best !== undefined && bestDistance <= allowed ? best : undefined;
}

/**
 * Optimal string alignment distance (Levenshtein plus adjacent transpositions as one edit). The Levenshtein
 * packages in node_modules (leven, fast-levenshtein) count a swapped pair as two edits, which is the most
 * common typo in field names (`emial`); field names are short, so the O(n·m) table costs nothing.
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length > 100 || b.length > 100) return Math.max(a.length, b.length);
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}
