import type { Document } from 'bson';
import { OrderedMap, OrderedSet } from 'immutable';
import { CommandError, ErrorCodes } from '../errors';
import { ForkableMap } from './forkable-map';
import { mingoQuery } from '../util/mingo';
import { formatForMessage, isPlainObject, keyString, valuesAtParts } from '../util/values';

export interface IndexKey {
  key: string;
  values: unknown[];
}

/** The keys a document held and holds in one index (see `SecondaryIndex.change`). */
export interface KeyChange {
  old: IndexKey[];
  next: IndexKey[];
}

export interface IndexSpec {
  v: number;
  key: Document;
  name: string;
  unique?: boolean;
  sparse?: boolean;
  partialFilterExpression?: Document;
  expireAfterSeconds?: number;
  [option: string]: unknown;
}

/**
 * One secondary index: a map from the canonical key string to the ids of the documents holding it,
 * so unique checks and equality lookups cost O(1) instead of a collection scan. Both the map and the id
 * sets are persistent (shared by a clone until written), so a transaction's copy costs nothing even for a
 * key that thousands of documents share (a company id).
 */
export class SecondaryIndex {
  private readonly partial?: ReturnType<typeof mingoQuery>;
  readonly fields: string[];
  private readonly paths: string[][];

  constructor(
    readonly spec: IndexSpec,
    readonly entries: ForkableMap<string, OrderedSet<string>> = new ForkableMap(),
    private readonly known = new WeakMap<Document, IndexKey[]>(),
  ) {
    this.fields = Object.keys(spec.key);
    this.paths = this.fields.map((f) => f.split('.'));
    if (spec.partialFilterExpression) this.partial = mingoQuery(spec.partialFilterExpression);
  }

  /** Whether an equality lookup through this index finds every matching document. */
  get complete(): boolean {
    return !this.spec.sparse && !this.partial;
  }

  /**
   * The keys a document contributes (several for arrays: multikey), or none when not indexed. Remembered per
   * document object: stored documents are never mutated (a write stores a new object), so the keys computed when
   * a document was stored serve again when it is replaced or removed. Shared by this index's clones (same spec).
   */
  keysFor(doc: Document): IndexKey[] {
    let keys = this.known.get(doc);
    if (!keys) this.known.set(doc, (keys = this.computeKeys(doc)));
    return keys;
  }

  private computeKeys(doc: Document): IndexKey[] {
    if (this.partial && !this.partial.test(doc)) return [];
    const perField = this.paths.map((p) => valuesAtParts(doc, p));
    if (this.spec.sparse && perField.every((vals) => vals.length === 1 && vals[0] === undefined)) return [];
    if (perField.length === 1 && perField[0].length === 1) {
      const values = perField[0];
      return [{ key: keyString(values[0]), values }];
    }
    let combos: unknown[][] = [[]];
    for (const vals of perField) combos = combos.flatMap((c) => vals.map((v) => [...c, v]));
    const seen = new Map<string, IndexKey>();
    for (const values of combos) {
      const key = values.length === 1 ? keyString(values[0]) : JSON.stringify(values.map(keyString));
      seen.set(key, { key, values });
    }
    return [...seen.values()];
  }

  /**
   * An index over existing documents (createIndexes on a filled collection, a start from a data directory), built
   * in plain Maps and turned into the persistent structures once: adding document by document cost a persistent
   * update per document and made a start with 50,000 documents spend most of its time here.
   */
  static build(spec: IndexSpec, docs: Iterable<[string, { doc: Document }]>, ns: string): SecondaryIndex {
    const ix = new SecondaryIndex(spec);
    const byKey = new Map<string, string[]>();
    for (const [id, { doc }] of docs) {
      for (const { key, values } of ix.keysFor(doc)) {
        const ids = byKey.get(key);
        if (!ids) byKey.set(key, [id]);
        else if (spec.unique) throw duplicateKeyError(ns, spec, values);
        else ids.push(id);
      }
    }
    const entries = OrderedMap<string, OrderedSet<string>>().withMutations((m) => {
      for (const [key, ids] of byKey) m.set(key, OrderedSet(ids));
    });
    return new SecondaryIndex(spec, new ForkableMap(entries), ix.known);
  }

  keyForLookup(values: unknown[]): string {
    return values.length === 1 ? keyString(values[0]) : JSON.stringify(values.map(keyString));
  }

  add(id: string, doc: Document, keys = this.keysFor(doc)): void {
    this.addKeys(id, keys);
  }

  addKeys(id: string, keys: IndexKey[]): void {
    for (const { key } of keys) this.entries.set(key, (this.entries.get(key) ?? OrderedSet<string>()).add(id));
  }

  remove(id: string, doc: Document): void {
    this.removeKeys(id, this.keysFor(doc));
  }

  removeKeys(id: string, keys: IndexKey[]): void {
    for (const { key } of keys) {
      const ids = this.entries.get(key)?.delete(id);
      if (!ids) continue;
      if (ids.size) this.entries.set(key, ids);
      else this.entries.delete(key);
    }
  }

  /** The first key of `doc` already held by another document, when this index is unique. */
  conflict(id: string, doc: Document, keys = this.keysFor(doc)): IndexKey | undefined {
    if (!this.spec.unique) return undefined;
    for (const k of keys) {
      const ids = this.entries.get(k.key);
      if (ids && (ids.size > 1 || !ids.has(id))) return k;
    }
    return undefined;
  }

  /**
   * What replacing `before` by `after` (either absent: an insert or a removal) changes in this index: the keys
   * each holds, or undefined when both hold the same keys and the index stays as it is.
   */
  change(before: Document | undefined, after: Document | undefined): KeyChange | undefined {
    const old = before ? this.keysFor(before) : [];
    const next = after ? this.keysFor(after) : [];
    if (old.length === next.length && old.every((k, i) => k.key === next[i].key)) return undefined;
    return { old, next };
  }

  /** An independent copy in O(1) (transactions take one per touched index). */
  clone(): SecondaryIndex {
    return new SecondaryIndex(this.spec, this.entries.fork(), this.known);
  }
}

export function duplicateKeyError(ns: string, spec: Pick<IndexSpec, 'name' | 'key'>, values: unknown[]): CommandError {
  const fields = Object.keys(spec.key);
  const keyValue: Document = {};
  fields.forEach((f, i) => (keyValue[f] = values[i] ?? null));
  const shown = fields.map((f, i) => `${f}: ${formatForMessage(values[i])}`).join(', ');
  return new CommandError(
    ErrorCodes.DuplicateKey,
    `E11000 duplicate key error collection: ${ns} index: ${spec.name} dup key: { ${shown} }`,
    { keyPattern: spec.key, keyValue },
  );
}

/**
 * Whether an equality on this value selects exactly the documents whose index key equals its key
 * string. Not for null (matches missing fields but not empty arrays, which share the key).
 */
export function isExactKeyValue(v: unknown): boolean {
  return (
    v !== null && v !== undefined && (typeof v !== 'object' || v instanceof Date || (v as { _bsontype?: string })._bsontype === 'ObjectId')
  );
}

/** The equality value a filter pins `field` to, or undefined when it does not pin it to one value. */
export function equalityValue(filter: Document, field: string): { value: unknown } | undefined {
  if (!Object.prototype.hasOwnProperty.call(filter, field)) return undefined;
  let v: unknown = filter[field];
  if (isPlainObject(v)) {
    const keys = Object.keys(v);
    if (keys.length !== 1 || keys[0] !== '$eq') return undefined;
    v = v.$eq;
  }
  if (Array.isArray(v) || v instanceof RegExp || isPlainObject(v)) return undefined;
  if (typeof v === 'object' && v !== null && (v as { _bsontype?: string })._bsontype === 'BSONRegExp') return undefined;
  return { value: v };
}
