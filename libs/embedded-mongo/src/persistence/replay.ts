import type { Binary, Document } from 'bson';
import type { IndexSpec } from '../storage/index-manager';
import { Store } from '../storage/store';
import { keyString } from '../util/values';

interface CollState {
  options: Document;
  uuid: Buffer;
  indexes: Map<string, IndexSpec>;
  docs: Map<string, Document>;
}

/** The data as ops replay it, before it becomes a Store. */
export class ReplayState {
  readonly dbs = new Map<string, Map<string, CollState>>();

  private coll(db: string, name: string): CollState {
    const c = this.dbs.get(db)?.get(name);
    if (!c) throw new Error(`collection ${db}.${name} does not exist`);
    return c;
  }

  private set(db: string, name: string, c: CollState): void {
    let colls = this.dbs.get(db);
    if (!colls) this.dbs.set(db, (colls = new Map()));
    colls.set(name, c);
  }

  apply(op: Document): void {
    switch (op.o) {
      case 'p':
        this.coll(op.d, op.c).docs.set(keyString(op.doc._id), op.doc);
        return;
      case 'x':
        this.coll(op.d, op.c).docs.delete(keyString(op.id));
        return;
      case 'cc':
        this.set(op.d, op.c, {
          options: op.opts ?? {},
          uuid: Buffer.from((op.uuid as Binary).buffer),
          indexes: new Map(),
          docs: new Map(),
        });
        return;
      case 'dc':
        this.dbs.get(op.d)?.delete(op.c);
        return;
      case 'dd':
        this.dbs.delete(op.d);
        return;
      case 'ci':
        this.coll(op.d, op.c).indexes.set(op.spec.name, op.spec as IndexSpec);
        return;
      case 'di':
        this.coll(op.d, op.c).indexes.delete(op.n);
        return;
      case 'rn': {
        const c = this.coll(op.d, op.c);
        this.dbs.get(op.d)?.delete(op.c);
        this.set(op.td, op.tc, c);
        return;
      }
      default:
        throw new Error(`unknown record ${JSON.stringify(op.o)}`);
    }
  }

  toStore(): Store {
    const store = new Store();
    for (const [db, colls] of this.dbs)
      for (const [name, c] of colls) store.load(db, name, c.options, c.uuid, c.docs, [...c.indexes.values()]);
    return store;
  }
}
