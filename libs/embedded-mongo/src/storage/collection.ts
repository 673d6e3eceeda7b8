import type { Document } from 'bson';
import { CommandError, ErrorCodes } from '../errors';
import { isPlainObject, keyString } from '../util/values';
import { ForkableMap } from './forkable-map';
import type { ChangeLog } from './store';
import { duplicateKeyError, equalityValue, isExactKeyValue, SecondaryIndex, type IndexSpec, type KeyChange } from './index-manager';

/** A stored document. Entries are replaced, never mutated, so a transaction can tell by identity
 *  whether a document changed since it took its snapshot. */
export interface Entry {
  readonly doc: Document;
}

export const ID_INDEX: IndexSpec = { v: 2, key: { _id: 1 }, name: '_id_' };

export class Collection {
  /** Where this collection's changes are recorded: set on the shared store's collections when data is kept. */
  changes?: ChangeLog;

  constructor(
    readonly db: string,
    readonly name: string,
    readonly options: Document = {},
    readonly docs: ForkableMap<string, Entry> = new ForkableMap(),
    readonly indexes: Map<string, SecondaryIndex> = new Map(),
    readonly uuid: Buffer = randomUuid(),
  ) {}

  get ns(): string {
    return `${this.db}.${this.name}`;
  }

  insert(doc: Document): string {
    const id = keyString(doc._id);
    if (this.docs.has(id)) throw duplicateKeyError(this.ns, ID_INDEX, [doc._id]);
    const keys = [...this.indexes.values()].map((ix) => {
      const k = ix.keysFor(doc);
      const hit = ix.conflict(id, doc, k);
      if (hit) throw duplicateKeyError(this.ns, ix.spec, hit.values);
      return [ix, k] as const;
    });
    this.docs.set(id, { doc });
    for (const [ix, k] of keys) ix.add(id, doc, k);
    this.changes?.put(this, doc);
    return id;
  }

  replace(id: string, doc: Document): void {
    if (!this.docs.has(id)) throw new Error(`replace of missing document ${id}`);
    this.applyBatch([{ id, doc }]);
  }

  remove(id: string): boolean {
    const old = this.docs.get(id);
    if (!old) return false;
    for (const ix of this.indexes.values()) ix.remove(id, old.doc);
    this.docs.delete(id);
    this.changes?.remove(this, old.doc._id);
    return true;
  }

  /**
   * Applies several writes as one step (a transaction's commit): all old index keys leave before
   * any new key is checked, so swaps of unique values between documents do not collide midway.
   * On a duplicate key nothing is changed. `doc: undefined` removes the document.
   * Each document's keys are computed once per index, and an index in which a document keeps its keys (most
   * indexes, for most updates) is not touched: its entries keep their order, and its unique check is the one
   * that admitted those keys.
   */
  applyBatch(changes: Array<{ id: string; doc?: Document }>): void {
    const indexes = [...this.indexes.values()];
    const plans = changes.map(({ id, doc }) => {
      const before = this.docs.get(id)?.doc;
      return indexes.map((ix) => ix.change(before, doc));
    });
    const each = (i: number, fn: (ix: SecondaryIndex, change: KeyChange) => void) =>
      plans[i].forEach((change, j) => change && fn(indexes[j], change));
    changes.forEach(({ id }, i) => each(i, (ix, c) => ix.removeKeys(id, c.old)));
    const added: number[] = [];
    try {
      changes.forEach(({ id, doc }, i) => {
        if (!doc) return;
        each(i, (ix, c) => {
          const hit = ix.conflict(id, doc, c.next);
          if (hit) throw duplicateKeyError(this.ns, ix.spec, hit.values);
        });
        each(i, (ix, c) => ix.addKeys(id, c.next));
        added.push(i);
      });
    } catch (err) {
      for (const i of added) each(i, (ix, c) => ix.removeKeys(changes[i].id, c.next));
      changes.forEach(({ id }, i) => each(i, (ix, c) => ix.addKeys(id, c.old)));
      throw err;
    }
    for (const { id, doc } of changes) {
      const before = this.changes && !doc ? this.docs.get(id)?.doc : undefined;
      if (doc) this.docs.set(id, { doc });
      else this.docs.delete(id);
      if (doc) this.changes?.put(this, doc);
      else if (before) this.changes?.remove(this, before._id);
    }
  }

  /** Puts an entry back exactly as it was (used to undo partial transaction commits). */
  restore(id: string, entry: Entry | undefined): void {
    if (this.docs.has(id)) this.remove(id);
    if (entry) {
      this.docs.set(id, entry);
      for (const ix of this.indexes.values()) ix.add(id, entry.doc);
      this.changes?.put(this, entry.doc);
    }
  }

  private checkUnique(id: string, doc: Document): void {
    for (const ix of this.indexes.values()) {
      const hit = ix.conflict(id, doc);
      if (hit) throw duplicateKeyError(this.ns, ix.spec, hit.values);
    }
  }

  addIndex(spec: IndexSpec): void {
    this.indexes.set(spec.name, SecondaryIndex.build(spec, this.docs, this.ns));
    this.changes?.index(this, spec);
  }

  /** Changes an option of an index (collMod: `expireAfterSeconds`). */
  setIndexOption(ix: SecondaryIndex, option: string, value: unknown): void {
    ix.spec[option] = value;
    this.changes?.index(this, ix.spec);
  }

  dropIndex(name: string): void {
    if (name === '_id_') throw new CommandError(ErrorCodes.InvalidOptions, 'cannot drop _id index');
    if (!this.indexes.delete(name)) throw new CommandError(ErrorCodes.IndexNotFound, `index not found with name [${name}]`);
    this.changes?.dropIndex(this, name);
  }

  indexSpecs(): IndexSpec[] {
    return [ID_INDEX, ...[...this.indexes.values()].map((ix) => ix.spec)];
  }

  /**
   * Documents that may match `filter`: a Map lookup when the filter pins `_id` or every field of a
   * complete index to one value, otherwise every document. Callers still test each candidate.
   */
  candidates(filter: Document): { docs: Document[]; exact: boolean } {
    const filterKeys = Object.keys(filter);
    const id = equalityValue(filter, '_id');
    if (id) {
      const e = this.docs.get(keyString(id.value));
      return { docs: e ? [e.doc] : [], exact: filterKeys.length === 1 && isExactKeyValue(id.value) };
    }
    for (const ix of this.indexes.values()) {
      if (!ix.complete) continue;
      const values: unknown[] = [];
      for (const f of ix.fields) {
        const eq = equalityValue(filter, f);
        if (!eq) break;
        values.push(eq.value);
      }
      if (values.length !== ix.fields.length) continue;
      // The index answers the whole filter when the filter is exactly these equalities on
      // plain (non-numeric-segment) paths; mingo then need not re-test each document.
      const exact =
        filterKeys.length === ix.fields.length && values.every(isExactKeyValue) && ix.fields.every((f) => !/(^|\.)\d+(\.|$)/.test(f));
      const ids = ix.entries.get(ix.keyForLookup(values));
      if (!ids) return { docs: [], exact: true };
      return { docs: [...ids].map((i) => this.docs.get(i)?.doc).filter((d): d is Document => d !== undefined), exact };
    }
    return this.inCandidates(filter) ?? this.partialCandidates(filter) ?? { docs: this.all(), exact: filterKeys.length === 0 };
  }

  /**
   * For a filter that is exactly a partial index's filter expression, the documents in that index (only those
   * match it): the outbox relay's poll for documents holding pending messages would otherwise scan the
   * collection. mongod answers such a filter from the index too when it names the index's key
   * (`{ 'list._id': { $exists: true } }` for a partial index on `list._id` with that filter).
   */
  private partialCandidates(filter: Document): { docs: Document[]; exact: boolean } | undefined {
    if (!this.indexes.size) return undefined;
    let wanted: string | undefined;
    for (const ix of this.indexes.values()) {
      const expr = ix.spec.partialFilterExpression;
      // every document passing the filter has an entry (a missing field or an empty array indexes as null), unless
      // the index is also sparse
      if (!expr || ix.spec.sparse) continue;
      wanted ??= keyString(filter);
      if (keyString(expr) !== wanted) continue;
      const ids = new Set<string>();
      for (const set of ix.entries.values()) for (const id of set) ids.add(id);
      const docs = [...ids].map((i) => this.docs.get(i)?.doc).filter((d): d is Document => d !== undefined);
      return { docs, exact: true };
    }
    return undefined;
  }

  /** Candidates for `{ field: { $in: [...] } }` on `_id` or a single-field index (re-tested by mingo). */
  private inCandidates(filter: Document): { docs: Document[]; exact: boolean } | undefined {
    const ids = new Set<string>();
    const idIn = inValues(filter, '_id');
    if (idIn) {
      for (const v of idIn) ids.add(keyString(v));
    } else {
      const ix = [...this.indexes.values()].find((i) => i.complete && i.fields.length === 1 && inValues(filter, i.fields[0]));
      if (!ix) return undefined;
      for (const v of inValues(filter, ix.fields[0]) ?? []) for (const id of ix.entries.get(ix.keyForLookup([v])) ?? []) ids.add(id);
    }
    const docs = [...ids].map((i) => this.docs.get(i)?.doc).filter((d): d is Document => d !== undefined);
    return { docs, exact: false };
  }

  all(): Document[] {
    return [...this.docs.values()].map((e) => e.doc);
  }

  /** An independent copy in O(number of indexes): documents and index entries are shared until either side writes. */
  clone(): Collection {
    const indexes = new Map<string, SecondaryIndex>();
    for (const [name, ix] of this.indexes) indexes.set(name, ix.clone());
    return new Collection(this.db, this.name, this.options, this.docs.fork(), indexes, this.uuid);
  }
}

function inValues(filter: Document, field: string): unknown[] | undefined {
  const cond = filter[field];
  if (!isPlainObject(cond) || Object.keys(cond).length !== 1 || !Array.isArray(cond.$in)) return undefined;
  const values = cond.$in as unknown[];
  return values.every(
    (v) =>
      !Array.isArray(v) && !(v instanceof RegExp) && !isPlainObject(v) && (v as { _bsontype?: string } | null)?._bsontype !== 'BSONRegExp',
  )
    ? values
    : undefined;
}

function randomUuid(): Buffer {
  return Buffer.from(crypto.randomUUID().replace(/-/g, ''), 'hex');
}
