import type { Document } from 'bson';

type BsonValue = { _bsontype: string; toString(format?: string): string; toHexString?: () => string };

export function isBsonValue(v: unknown): v is BsonValue {
  return typeof v === 'object' && v !== null && typeof (v as { _bsontype?: unknown })._bsontype === 'string';
}

export function isPlainObject(v: unknown): v is Document {
  if (typeof v !== 'object' || v === null || Array.isArray(v) || isBsonValue(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * Deep copy of a stored document. Hand-written because structuredClone drops the bson classes'
 * prototypes (ObjectId would become a plain object); bson values are immutable and are shared.
 */
export function cloneDeep<T>(v: T): T {
  if (Array.isArray(v)) return v.map((x) => cloneDeep(x)) as T;
  if (v instanceof Date) return new Date(v.getTime()) as T;
  if (isPlainObject(v)) {
    const out: Document = {};
    for (const k of Object.keys(v)) {
      // a document may have an own field named "__proto__" (BSON allows it): assigning it would set the
      // prototype instead, and the field would be lost
      if (k === '__proto__')
        Object.defineProperty(out, k, { value: cloneDeep(v[k]), enumerable: true, writable: true, configurable: true });
      else out[k] = cloneDeep(v[k]);
    }
    return out as T;
  }
  return v;
}

/**
 * A canonical string for a value, equal exactly when MongoDB's index would treat the values as the
 * same key: numbers compare by value regardless of int/double, null and missing are the same key.
 */
export function keyString(v: unknown): string {
  if (v === undefined || v === null) return 'z';
  switch (typeof v) {
    case 'number':
      return `n${Object.is(v, -0) ? 0 : v}`;
    case 'bigint':
      return `n${v}`;
    case 'string':
      return `s${v}`;
    case 'boolean':
      return `b${v}`;
  }
  if (v instanceof Date) return `d${v.getTime()}`;
  if (v instanceof RegExp) return `r${String(v)}`;
  if (Array.isArray(v)) return `[${v.map(keyString).join(',')}]`;
  if (isBsonValue(v)) {
    switch (v._bsontype) {
      case 'ObjectId':
        return `o${v.toHexString?.() ?? v.toString()}`;
      case 'Long':
      case 'Int32':
      case 'Double':
        return `n${Number(v.toString())}`;
      case 'Binary':
        return `x${v.toString('base64')}`;
      default:
        return `t${v._bsontype}:${v.toString()}`;
    }
  }
  if (typeof v === 'object') {
    return `{${Object.entries(v as Document)
      .map(([k, x]) => `${JSON.stringify(k)}:${keyString(x)}`)
      .join(',')}}`;
  }
  return `?${String(v)}`;
}

/**
 * Every value reachable at a dotted path, descending into arrays the way a multikey index does.
 * A missing path yields [undefined]; an array at the leaf yields its elements.
 */
export function valuesAtPath(doc: unknown, path: string): unknown[] {
  return walk(doc, path.split('.'), 0);
}

/** valuesAtPath with the path already split (hot path of index maintenance). */
export function valuesAtParts(doc: unknown, parts: string[]): unknown[] {
  return walk(doc, parts, 0);
}

function walk(v: unknown, parts: string[], i: number): unknown[] {
  if (i === parts.length) {
    if (Array.isArray(v)) return v.length ? v : [undefined];
    return [v];
  }
  if (Array.isArray(v)) {
    const part = parts[i];
    if (/^\d+$/.test(part)) return walk(v[Number(part)], parts, i + 1);
    return v.length ? v.flatMap((el) => walk(el, parts, i)) : [undefined];
  }
  if (isPlainObject(v)) return walk(v[parts[i]], parts, i + 1);
  return [undefined];
}

/** The value at a dotted path without array expansion (for building keyValue in errors). */
export function valueAtPath(doc: unknown, path: string): unknown {
  let cur: unknown = doc;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Document)[part];
  }
  return cur;
}

/** Renders a value the way the server prints it inside an E11000 message. */
export function formatForMessage(v: unknown): string {
  if (v === undefined || v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v instanceof Date) return `new Date(${v.getTime()})`;
  if (isBsonValue(v)) {
    if (v._bsontype === 'ObjectId') return `ObjectId('${v.toString()}')`;
    return v.toString();
  }
  if (Array.isArray(v)) return `[ ${v.map(formatForMessage).join(', ')} ]`;
  if (typeof v === 'object') {
    const entries = Object.entries(v as Document).map(([k, x]) => `${k}: ${formatForMessage(x)}`);
    return entries.length ? `{ ${entries.join(', ')} }` : '{}';
  }
  return String(v);
}
