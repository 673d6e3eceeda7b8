import type { Document } from 'bson';
import { Collection } from './collection';

/** How commands reach collections: the shared store directly, or a transaction's snapshots. */
export interface DataAccess {
  collection(db: string, name: string): Collection | undefined;
  /** The collection, created implicitly (as MongoDB does on first write) when missing. */
  collectionForWrite(db: string, name: string): Collection;
  /** Called before a document (by id key) is inserted, replaced or removed. */
  beforeWrite(coll: Collection, id: string): void;
}

/** All databases of one server instance, kept in memory. */
export class Store implements DataAccess {
  private readonly dbs = new Map<string, Map<string, Collection>>();
  /** Documents written by open transactions: `${ns}\0${idKey}` -> transaction key. */
  readonly locks = new Map<string, string>();

  collection(db: string, name: string): Collection | undefined {
    return this.dbs.get(db)?.get(name);
  }

  collectionForWrite(db: string, name: string): Collection {
    return this.collection(db, name) ?? this.create(db, name);
  }

  beforeWrite(): void {
    // Writes outside transactions apply immediately; a transaction that read the old version
    // notices at its own next write or at commit (its snapshot entry is no longer current).
  }

  create(db: string, name: string, options: Document = {}): Collection {
    let colls = this.dbs.get(db);
    if (!colls) this.dbs.set(db, (colls = new Map()));
    const coll = new Collection(db, name, options);
    colls.set(name, coll);
    return coll;
  }

  /** Moves a collection (documents and indexes) to a new namespace. */
  rename(coll: Collection, db: string, name: string): Collection {
    this.drop(coll.db, coll.name);
    const moved = new Collection(db, name, coll.options, coll.docs, coll.indexes, coll.uuid);
    let colls = this.dbs.get(db);
    if (!colls) this.dbs.set(db, (colls = new Map()));
    colls.set(name, moved);
    return moved;
  }

  drop(db: string, name: string): boolean {
    return this.dbs.get(db)?.delete(name) ?? false;
  }

  dropDatabase(db: string): void {
    this.dbs.delete(db);
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
