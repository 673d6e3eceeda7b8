import { CommandError, ErrorCodes, writeConflict } from '../errors';
import { Collection, type Entry } from '../storage/collection';
import type { DataAccess, Store } from '../storage/store';

export type TransactionState = 'active' | 'committed' | 'aborted';

/**
 * One multi-document transaction. It works on private copies of the collections it touches, so
 * its writes stay invisible to everyone else until commit. Each document it writes is locked;
 * a second transaction writing the same document, or a document that changed underneath this
 * transaction's copy, gets WriteConflict (112), which the driver retries.
 */
export class Transaction implements DataAccess {
  state: TransactionState = 'active';
  lastUsed = Date.now();
  private readonly snapshots = new Map<string, Collection>();
  /** ns -> id key -> the entry this transaction's copy held before its first write. */
  private readonly written = new Map<string, Map<string, Entry | undefined>>();

  constructor(
    private readonly store: Store,
    readonly key: string,
    readonly txnNumber: number,
  ) {}

  collection(db: string, name: string): Collection | undefined {
    const ns = `${db}.${name}`;
    const snap = this.snapshots.get(ns);
    if (snap) return snap;
    const base = this.store.collection(db, name);
    if (!base) return undefined;
    const copy = base.clone();
    this.snapshots.set(ns, copy);
    return copy;
  }

  collectionForWrite(db: string, name: string): Collection {
    const existing = this.collection(db, name);
    if (existing) return existing;
    // A collection created inside the transaction appears for others only at commit.
    const fresh = new Collection(db, name);
    this.snapshots.set(`${db}.${name}`, fresh);
    return fresh;
  }

  beforeWrite(coll: Collection, id: string): void {
    this.assertActive();
    let writes = this.written.get(coll.ns);
    if (writes?.has(id)) return;
    const lockKey = `${coll.ns}\0${id}`;
    const holder = this.store.locks.get(lockKey);
    const current = this.store.collection(coll.db, coll.name)?.docs.get(id);
    if ((holder && holder !== this.key) || current !== coll.docs.get(id)) {
      this.abort();
      throw writeConflict();
    }
    this.store.locks.set(lockKey, this.key);
    if (!writes) this.written.set(coll.ns, (writes = new Map()));
    writes.set(id, coll.docs.get(id));
  }

  commit(): void {
    this.assertActive();
    const plan: Array<{ base: Collection | undefined; snap: Collection; writes: Map<string, Entry | undefined> }> = [];
    for (const [ns, writes] of this.written) {
      const snap = this.snapshots.get(ns);
      if (!snap) continue;
      const base = this.store.collection(snap.db, snap.name);
      for (const [id, seen] of writes) {
        if ((base?.docs.get(id) ?? undefined) !== seen) {
          this.abort();
          throw writeConflict();
        }
      }
      plan.push({ base, snap, writes });
    }
    const undo: Array<[Collection, string, Entry | undefined]> = [];
    try {
      for (const { base: existing, snap, writes } of plan) {
        // A collection created inside the transaction comes into being now.
        const base = existing ?? this.store.create(snap.db, snap.name, snap.options);
        const ids = [...writes.keys()];
        const before = ids.map((id) => base.docs.get(id));
        base.applyBatch(ids.map((id) => ({ id, doc: snap.docs.get(id)?.doc })));
        ids.forEach((id, i) => undo.push([base, id, before[i]]));
      }
    } catch (err) {
      // Only collections applied before the failing one need undoing; applyBatch is all-or-nothing.
      for (const [base, id, prev] of undo.reverse()) base.restore(id, prev);
      this.abort();
      // A unique key taken by a transaction that committed first: retrying sees it and then
      // reports the duplicate key properly.
      if (err instanceof CommandError && err.code === ErrorCodes.DuplicateKey) throw writeConflict();
      throw err;
    }
    this.state = 'committed';
    this.release();
  }

  abort(): void {
    if (this.state !== 'active') return;
    this.state = 'aborted';
    this.release();
  }

  private release(): void {
    for (const [ns, writes] of this.written) {
      for (const id of writes.keys()) {
        const lockKey = `${ns}\0${id}`;
        if (this.store.locks.get(lockKey) === this.key) this.store.unlock(lockKey);
      }
    }
    this.snapshots.clear();
    this.written.clear();
  }

  private assertActive(): void {
    if (this.state !== 'active') {
      throw new CommandError(ErrorCodes.NoSuchTransaction, `Transaction with { txnNumber: ${this.txnNumber} } has been aborted.`, {}, [
        'TransientTransactionError',
      ]);
    }
  }
}
