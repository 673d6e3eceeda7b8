import type { Document } from 'bson';
import { OrderedMap } from 'immutable';
import { Collection, type Entry } from './collection';
import { ForkableMap } from './forkable-map';
import type { IndexSpec } from './index-manager';

/**
 * Where the shared store's changes are recorded when the server keeps its data (a journal in the data directory).
 * Called after each change is made in memory, in the order made; collections of transactions' private copies
 * have none, so a transaction is recorded only by its commit.
 */
export interface ChangeLog {
  put(coll: Collection, doc: Document): void;
  remove(coll: Collection, id: unknown): void;
  createCollection(coll: Collection): void;
  dropCollection(db: string, name: string): void;
  dropDatabase(db: string): void;
  /** An index created, or its options changed (collMod). */
  index(coll: Collection, spec: IndexSpec): void;
  dropIndex(coll: Collection, name: string): void;
  rename(from: { db: string; name: string }, to: Collection): void;
}

/**
 * Thrown by a write outside a transaction whose statement's first document is locked by an open
 * transaction: the statement has changed nothing yet, so the server waits for the lock and runs it
 * (and the statements after it) again, as mongod makes such a write wait until the transaction
 * commits or aborts.
 */
export class LockBusy extends Error {
  constructor(readonly lockKey: string) {
    super(`document ${lockKey} is locked by an open transaction`);
  }
}

/** How commands reach collections: the shared store directly, or a transaction's snapshots. */
export interface DataAccess {
  collection(db: string, name: string): Collection | undefined;
  /** The collection, created implicitly (as MongoDB does on first write) when missing. */
  collectionForWrite(db: string, name: string): Collection;
  /** Called before a document (by id key) is inserted, replaced or removed. */
  beforeWrite(coll: Collection, id: string): void;
  /** Called before each statement of a write command (an insert's document, an update, a delete). */
  beginStatement?(): void;
}

/** All databases of one server instance, kept in memory. */
export class Store implements DataAccess {
  private readonly dbs = new Map<string, Map<string, Collection>>();
  /** Documents written by open transactions: `${ns}\0${idKey}` -> transaction key. */
  readonly locks = new Map<string, string>();
  /** Writes outside transactions waiting for a lock to be released, by lock key. */
  private readonly waiters = new Map<string, Array<() => void>>();
  /** Documents the running statement outside a transaction has written so far (see beginStatement). */
  private written = 0;
  /** Whether the running command may wait for a lock: only the server's dispatch can wait. */
  private mayWait = false;
  /** Set when the data is kept in a data directory; every collection of the store records its changes there. */
  changes?: ChangeLog;

  collection(db: string, name: string): Collection | undefined {
    return this.dbs.get(db)?.get(name);
  }

  collectionForWrite(db: string, name: string): Collection {
    return this.collection(db, name) ?? this.create(db, name);
  }

  /**
   * A write outside a transaction. On a document an open transaction has written, mongod makes it
   * wait until that transaction ends; so does this server, when the document is its statement's
   * first (nothing of the statement is changed yet, so it can run again once the lock is released).
   * A later document of a multi-document statement (`updateMany`) is written at once, and the
   * transaction that holds it gets WriteConflict at commit. A transaction that read the old version
   * of a document written here notices at its own next write of it or at commit (its snapshot entry
   * is no longer current).
   */
  beforeWrite(coll: Collection, id: string): void {
    if (this.mayWait && this.written === 0 && this.locks.size) {
      const lockKey = `${coll.ns}\0${id}`;
      if (this.locks.has(lockKey)) throw new LockBusy(lockKey);
    }
    this.written++;
  }

  /** Called before each command outside a transaction; `mayWait` when its caller handles LockBusy. */
  beginCommand(mayWait: boolean): void {
    this.written = 0;
    this.mayWait = mayWait;
  }

  beginStatement(): void {
    this.written = 0;
  }

  /** Resolves once the lock is released (at once when it is not held). */
  whenUnlocked(lockKey: string): Promise<void> {
    if (!this.locks.has(lockKey)) return Promise.resolve();
    return new Promise((resolve) => {
      const list = this.waiters.get(lockKey);
      if (list) list.push(resolve);
      else this.waiters.set(lockKey, [resolve]);
    });
  }

  /** Releases a transaction's lock and wakes the writes waiting for it. */
  unlock(lockKey: string): void {
    this.locks.delete(lockKey);
    const list = this.waiters.get(lockKey);
    if (!list) return;
    this.waiters.delete(lockKey);
    for (const wake of list) wake();
  }

  create(db: string, name: string, options: Document = {}): Collection {
    let colls = this.dbs.get(db);
    if (!colls) this.dbs.set(db, (colls = new Map()));
    const coll = new Collection(db, name, options);
    colls.set(name, coll);
    coll.changes = this.changes;
    this.changes?.createCollection(coll);
    return coll;
  }

  /** A collection as read back from a data directory (before `changes` is set: loading records nothing). */
  load(db: string, name: string, options: Document, uuid: Buffer, docs: Map<string, Document>, indexes: IndexSpec[]): Collection {
    const map = OrderedMap<string, Entry>().withMutations((m) => {
      for (const [id, doc] of docs) m.set(id, { doc });
    });
    const coll = new Collection(db, name, options, new ForkableMap(map), new Map(), uuid);
    for (const spec of indexes) coll.addIndex(spec);
    let colls = this.dbs.get(db);
    if (!colls) this.dbs.set(db, (colls = new Map()));
    colls.set(name, coll);
    return coll;
  }

  /** Starts recording every change of every collection in `changes`. */
  record(changes: ChangeLog): void {
    this.changes = changes;
    for (const coll of this.allCollections()) coll.changes = changes;
  }

  /** Moves a collection (documents and indexes) to a new namespace. */
  rename(coll: Collection, db: string, name: string): Collection {
    this.dbs.get(coll.db)?.delete(coll.name);
    const moved = new Collection(db, name, coll.options, coll.docs, coll.indexes, coll.uuid);
    let colls = this.dbs.get(db);
    if (!colls) this.dbs.set(db, (colls = new Map()));
    colls.set(name, moved);
    moved.changes = this.changes;
    this.changes?.rename(coll, moved);
    return moved;
  }

  drop(db: string, name: string): boolean {
    const dropped = this.dbs.get(db)?.delete(name) ?? false;
    if (dropped) this.changes?.dropCollection(db, name);
    return dropped;
  }

  dropDatabase(db: string): void {
    if (this.dbs.delete(db)) this.changes?.dropDatabase(db);
  }

  collections(db: string): Collection[] {
    return [...(this.dbs.get(db)?.values() ?? [])];
  }

  databases(): string[] {
    return [...this.dbs.keys()].filter((db) => this.dbs.get(db)?.size);
  }

  allCollections(): Collection[] {
    return [...this.dbs.values()].flatMap((colls) => [...colls.values()]);
  }
}
