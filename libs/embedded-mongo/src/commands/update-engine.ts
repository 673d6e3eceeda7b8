import { ObjectId, type Document } from 'bson';
import { Aggregator, update as mingoUpdate } from 'mingo';
import { CommandError, ErrorCodes } from '../errors';
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
    next = cloneDeep(original);
    if (opts.inserting && isPlainObject($setOnInsert)) {
      mingoApply(next, { $set: $setOnInsert });
    }
    const nonEmpty = Object.fromEntries(Object.entries(mods).filter(([, v]) => !isPlainObject(v) || Object.keys(v).length));
    if (Object.keys(nonEmpty).length) {
      mingoApply(next, nonEmpty, opts.arrayFilters, opts.inserting ? undefined : opts.filter);
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

export function changed(a: Document, b: Document): boolean {
  return keyString(a) !== keyString(b);
}
