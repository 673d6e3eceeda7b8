import type { Document } from 'bson';
import { Aggregator } from 'mingo';
import type { Collection } from '../storage/collection';
import { mingoQuery } from '../util/mingo';
import { simpleMatcher } from './simple-filter';
import { cloneDeep, isPlainObject } from '../util/values';

export interface FindOptions {
  filter?: Document;
  sort?: Document;
  skip?: number;
  limit?: number;
  projection?: Document;
}

function asFilter(v: unknown): Document {
  return isPlainObject(v) ? v : {};
}

/** Stored documents matching a filter, using an index for candidates when one applies. */
export function matching(coll: Collection | undefined, filter: unknown): Document[] {
  const f = asFilter(filter);
  if (!coll) {
    if (Object.keys(f).length) mingoQuery(f); // still reject malformed filters, as the server does
    return [];
  }
  const { docs, exact } = coll.candidates(f);
  if (exact) return docs;
  // A filter of plain equalities is matched without mingo (simple-filter.ts); any other builds a mingo Query (~15 µs),
  // which also rejects a malformed filter, and so does a document only mingo can judge.
  const simple = simpleMatcher(f);
  let q = simple ? undefined : mingoQuery(f);
  return docs.filter((d) => simple?.(d) ?? (q ??= mingoQuery(f)).test(d));
}

/**
 * Runs a find. Results reference stored documents directly: stored documents are never mutated
 * (updates replace them with modified clones), so handing them to a cursor is safe.
 */
export function runFind(coll: Collection | undefined, opts: FindOptions): Document[] {
  let docs = matching(coll, opts.filter);
  const sort = isPlainObject(opts.sort) && Object.keys(opts.sort).length ? opts.sort : undefined;
  const projection = isPlainObject(opts.projection) && Object.keys(opts.projection).length ? opts.projection : undefined;
  if (sort)
    docs = mingoQuery({})
      .find(docs)
      .sort(sort as Record<string, 1 | -1>)
      .all() as Document[];
  const skip = Math.max(0, Number(opts.skip ?? 0));
  const limit = Math.abs(Number(opts.limit ?? 0));
  if (skip || limit) docs = docs.slice(skip, limit ? skip + limit : undefined);
  if (projection) docs = mingoQuery({}).find(docs, projection).all() as Document[];
  return docs;
}

export function project(doc: Document | null, projection: unknown): Document | null {
  if (!doc || !isPlainObject(projection) || !Object.keys(projection).length) return doc;
  return mingoQuery({}).find([doc], projection).all()[0] ?? null;
}

/**
 * Runs an aggregation pipeline. A leading $match is served through `matching` (index lookups);
 * the rest runs in mingo on deep copies, because mingo stages may modify their input in place.
 */
export function runAggregate(
  docs: Document[] | Collection | undefined,
  pipeline: Document[],
  resolve: (name: string) => Document[],
): Document[] {
  let input: Document[];
  let stages = pipeline;
  if (Array.isArray(docs)) input = docs;
  else if (stages.length && isPlainObject(stages[0].$match)) {
    input = matching(docs, stages[0].$match);
    stages = stages.slice(1);
  } else input = docs ? docs.all() : [];
  if (!stages.length) return input;
  const counted = countOnly(input, stages);
  if (counted) return counted;
  const agg = new Aggregator(stages, { collectionResolver: (name: string) => resolve(name).map(cloneDeep) });
  return agg.run(input.map(cloneDeep));
}

/**
 * A pipeline that only counts what it is given (`$skip`/`$limit`, then one `$group` by a constant whose fields are all
 * `{ $sum: <number> }`; the driver's countDocuments sends `{ $group: { _id: 1, n: { $sum: 1 } } }`), answered without
 * copying the documents for mingo; undefined for any other pipeline. No group (no output) when nothing is counted.
 */
function countOnly(input: Document[], stages: Document[]): Document[] | undefined {
  let n = input.length;
  const last = stages.length - 1;
  for (const [i, stage] of stages.entries()) {
    const keys = Object.keys(stage);
    if (keys.length !== 1) return undefined;
    const [op] = keys;
    const arg = stage[op!] as unknown;
    if (i < last && op === '$skip' && Number.isSafeInteger(arg) && (arg as number) >= 0) n = Math.max(0, n - (arg as number));
    else if (i < last && op === '$limit' && Number.isSafeInteger(arg) && (arg as number) > 0) n = Math.min(n, arg as number);
    else if (i === last && op === '$group' && isPlainObject(arg)) {
      const { _id: id, ...fields } = arg;
      if (id !== null && !['number', 'string', 'boolean'].includes(typeof id)) return undefined;
      if (typeof id === 'string' && id.startsWith('$')) return undefined; // a field path: one group per value
      const out: Document = { _id: id };
      for (const [name, acc] of Object.entries(fields)) {
        const sum = isPlainObject(acc) && Object.keys(acc).length === 1 ? acc.$sum : undefined;
        if (typeof sum !== 'number' || !Number.isFinite(sum) || name.startsWith('$') || name.includes('.')) return undefined;
        out[name] = n * sum;
      }
      return n ? [out] : [];
    } else return undefined;
  }
  return undefined;
}
