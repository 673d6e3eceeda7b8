import { ObjectId, type Document } from 'bson';
import { Aggregator } from 'mingo';
import { CommandError, ErrorCodes } from '../errors';
import { mingoQuery, mingoUpdate } from '../util/mingo';
import { cloneDeep, isPlainObject, keyString, valueAtPath } from '../util/values';

export type UpdateSpec = Document | Document[];

const UPDATE_OPERATORS = new Set([
  '$set',
  '$unset',
  '$inc',
  '$mul',
  '$rename',
  '$min',
  '$max',
  '$currentDate',
  '$push',
  '$pull',
  '$pullAll',
  '$addToSet',
  '$pop',
  '$bit',
  '$setOnInsert',
]);

/** Checks an update document up front, as the server does even when nothing matches. */
export function validateUpdate(u: unknown): void {
  if (Array.isArray(u)) return;
  if (!isPlainObject(u)) throw new CommandError(ErrorCodes.FailedToParse, 'Update argument must be either an object or an array');
  const keys = Object.keys(u);
  if (!keys.some((k) => k.startsWith('$'))) return;
  for (const op of keys) {
    if (!UPDATE_OPERATORS.has(op))
      throw new CommandError(
        ErrorCodes.FailedToParse,
        `Unknown modifier: ${op}. Expected a valid update modifier or pipeline-style update specified as an array`,
      );
    if (!isPlainObject(u[op]))
      throw new CommandError(ErrorCodes.FailedToParse, `Modifiers operate on fields but we found type ${typeof u[op]} instead.`);
  }
}

export function isOperatorUpdate(u: UpdateSpec): boolean {
  return !Array.isArray(u) && Object.keys(u).some((k) => k.startsWith('$'));
}

function immutableId(): CommandError {
  return new CommandError(ErrorCodes.ImmutableField, "Performing an update on the path '_id' would modify the immutable field '_id'");
}

/** mingo's update, with its errors turned into the server's codes (it guards `_id` itself). */
function mingoApply(doc: Document, mods: Document, arrayFilters?: Document[], filter?: Document): void {
  try {
    mingoUpdate(doc, mods, arrayFilters, filter, { cloneMode: 'deep' });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (message.includes('immutable field')) throw new CommandError(ErrorCodes.ImmutableField, message);
    if (message.includes('would create a conflict')) throw new CommandError(ErrorCodes.ConflictingUpdateOperators, message);
    throw new CommandError(ErrorCodes.BadValue, message);
  }
}

/** Puts `_id` first, as the server stores it. */
export function withIdFirst(doc: Document): Document {
  if (Object.keys(doc)[0] === '_id') return doc;
  const { _id, ...rest } = doc;
  return { _id, ...rest };
}

/**
 * The document that results from applying `u` to `original`, which is left untouched (mingo
 * modifies in place, so it works on a deep copy). `$setOnInsert` is ours to handle: mingo has no
 * such operator; it acts like `$set` on an upsert's insert and is ignored otherwise.
 */
export function applyUpdate(
  original: Document,
  u: UpdateSpec,
  opts: { arrayFilters?: Document[]; filter?: Document; inserting?: boolean } = {},
): Document {
  let next: Document;
  if (Array.isArray(u)) {
    next = new Aggregator(u).run([cloneDeep(original)])[0] ?? {};
  } else if (isOperatorUpdate(u)) {
    const { $setOnInsert, ...mods } = u as Document;
    validateUpdate(u);
    assertNumericTargets(original, mods);
    const nonEmpty = Object.fromEntries(Object.entries(mods).filter(([, v]) => !isPlainObject(v) || Object.keys(v).length));
    const onInsert = opts.inserting && isPlainObject($setOnInsert) ? { $set: $setOnInsert } : undefined;
    const simple = !opts.arrayFilters?.length && isSimple(original, onInsert ? [onInsert, nonEmpty] : [nonEmpty]);
    if (simple) {
      // untouched fields are shared with the stored document, which is never modified (see applySimple)
      next = { ...original };
      if (onInsert) applySimple(next, onInsert);
      applySimple(next, nonEmpty);
    } else {
      next = cloneDeep(original);
      if (onInsert) mingoApply(next, onInsert);
      if (Object.keys(nonEmpty).length) mingoApply(next, nonEmpty, opts.arrayFilters, opts.inserting ? undefined : opts.filter);
    }
  } else {
    if (u._id !== undefined && original._id !== undefined && keyString(u._id) !== keyString(original._id)) {
      throw new CommandError(
        ErrorCodes.ImmutableField,
        `After applying the update, the (immutable) field '_id' was found to have been altered to _id: ${String(u._id)}`,
      );
    }
    next = { ...cloneDeep(u) };
    if (original._id !== undefined) next._id = original._id;
  }
  if (original._id !== undefined && keyString(next._id) !== keyString(original._id)) throw immutableId();
  if (next._id === undefined) next._id = new ObjectId();
  return withIdFirst(next);
}

function isNumeric(v: unknown): boolean {
  if (typeof v === 'number') return true;
  const t = (v as { _bsontype?: string } | null)?._bsontype;
  return t === 'Long' || t === 'Int32' || t === 'Double' || t === 'Decimal128';
}

/** mingo skips $inc/$mul on non-numbers silently; the server refuses them (TypeMismatch, 14). */
function assertNumericTargets(original: Document, mods: Document): void {
  for (const op of ['$inc', '$mul']) {
    const spec = mods[op];
    if (!isPlainObject(spec)) continue;
    for (const [path, arg] of Object.entries(spec)) {
      if (!isNumeric(arg))
        throw new CommandError(
          ErrorCodes.TypeMismatch,
          `Cannot ${op === '$inc' ? 'increment' : 'multiply'} with non-numeric argument: {${path}: ${JSON.stringify(arg)}}`,
        );
      if (path.includes('$')) continue;
      const current = valueAtPath(original, path);
      if (current !== undefined && !isNumeric(current)) {
        throw new CommandError(
          ErrorCodes.TypeMismatch,
          `Cannot apply ${op} to a value of non-numeric type. {_id: ${JSON.stringify(original._id)}} has the field '${path}' of non-numeric type ${current === null ? 'null' : typeof current}`,
        );
      }
    }
  }
}

/** The document an upsert starts from: the equality conditions of its filter. */
export function upsertSeed(filter: Document): Document {
  const seed: Document = {};
  const equalities: Document = {};
  collectEqualities(filter, equalities);
  const dotted: Document = {};
  for (const [k, v] of Object.entries(equalities)) {
    if (k.includes('.')) dotted[k] = v;
    else seed[k] = cloneDeep(v);
  }
  if (Object.keys(dotted).length) mingoApply(seed, { $set: dotted });
  return seed;
}

function collectEqualities(filter: Document, out: Document): void {
  for (const [k, v] of Object.entries(filter)) {
    if (k === '$and' && Array.isArray(v)) {
      for (const sub of v) if (isPlainObject(sub)) collectEqualities(sub, out);
      continue;
    }
    if (k.startsWith('$')) continue;
    if (isPlainObject(v)) {
      const keys = Object.keys(v);
      if (keys.length === 1 && keys[0] === '$eq') out[k] = v.$eq;
      else if (!keys.some((x) => x.startsWith('$'))) out[k] = v;
      continue;
    }
    if (v instanceof RegExp) continue;
    out[k] = v;
  }
}

/**
 * Whether an update changed a document: the same fields in the same order with the same values (compared as
 * index keys, so 1 and 1.0 are the same). A field both share by reference is equal without being serialized.
 */
export function changed(a: Document, b: Document): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return true;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i]!;
    if (k !== kb[i]) return true;
    if (a[k] !== b[k] && keyString(a[k]) !== keyString(b[k])) return true;
  }
  return false;
}

/*
 * The update shapes nearly every write of the services has, applied here instead of by mingo: `$set`, `$unset`
 * and `$inc` of top-level fields. mingo's `update` builds a fresh operator context for each call, copying its
 * operator tables (hundreds of entries) five times; bench:finalize's profile of this server showed that as
 * 18 % of its CPU. Also `$push` of values or `{ $each: [...] }` onto a top-level array and `$pull` of
 * the elements (all documents) that match a document condition (a draft invoice's pending messages, written with
 * each change and pulled by the outbox relay): through mingo, each also deep-copied the whole document twice.
 * Every other shape (dotted or positional paths, array filters, other operators or modifiers, a non-array target,
 * a field named by two operators, `_id`) still goes to mingo, which also reports their errors.
 */
const SIMPLE_OPERATORS = new Set(['$set', '$unset', '$inc', '$push', '$pull']);

const hasOperatorKeys = (v: Document) => Object.keys(v).some((k) => k.startsWith('$'));

/** The values a simple `$push` appends, or undefined when mingo must handle it ($position, $slice, $sort). */
function pushedValues(arg: unknown): unknown[] | undefined {
  if (!isPlainObject(arg) || !hasOperatorKeys(arg)) return [arg];
  const keys = Object.keys(arg);
  return keys.length === 1 && keys[0] === '$each' && Array.isArray(arg.$each) ? arg.$each : undefined;
}

/** A `$pull` condition this file applies: a document condition (no operator at its top) on document elements. */
function simplePull(target: unknown, arg: unknown): boolean {
  if (!isPlainObject(arg) || !Object.keys(arg).length || hasOperatorKeys(arg)) return false;
  return target === undefined || (Array.isArray(target) && target.every((e) => isPlainObject(e)));
}

function isSimple(original: Document, updates: Document[]): boolean {
  const seen = new Set<string>();
  for (const mods of updates) {
    for (const [op, spec] of Object.entries(mods)) {
      if (!SIMPLE_OPERATORS.has(op) || !isPlainObject(spec)) return false;
      for (const [path, arg] of Object.entries(spec)) {
        if (!path || path === '_id' || path === '__proto__' || path.includes('.') || path.includes('$') || seen.has(path)) return false;
        // a BSON-typed counter or increment (Long, Int32, Decimal128) is left to mingo's arithmetic
        if (op === '$inc' && (typeof arg !== 'number' || (original[path] !== undefined && typeof original[path] !== 'number')))
          return false;
        if (op === '$push' && ((original[path] !== undefined && !Array.isArray(original[path])) || !pushedValues(arg))) return false;
        if (op === '$pull' && !simplePull(original[path], arg)) return false;
        seen.add(path);
      }
    }
  }
  return true;
}

/**
 * Applies what `isSimple` accepted to `doc`, a shallow copy of the stored document: fields are replaced or
 * removed, never modified in place, so the values it shares with the stored document stay as they were.
 */
function applySimple(doc: Document, mods: Document): void {
  for (const [op, spec] of Object.entries(mods) as Array<[string, Document]>) {
    for (const [path, arg] of Object.entries(spec)) {
      if (op === '$set') doc[path] = cloneDeep(arg);
      else if (op === '$unset') delete doc[path];
      else if (op === '$push') doc[path] = [...((doc[path] as unknown[] | undefined) ?? []), ...cloneDeep(pushedValues(arg) ?? [])];
      else if (op === '$pull') {
        const list = doc[path] as Document[] | undefined;
        if (!list) continue; // nothing to pull from: the field stays absent
        const condition = mingoQuery(arg as Document);
        doc[path] = list.filter((e) => !condition.test(e));
      } else doc[path] = ((doc[path] as number | undefined) ?? 0) + (arg as number);
    }
  }
}
