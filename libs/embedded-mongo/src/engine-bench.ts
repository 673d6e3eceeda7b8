import { CursorRegistry } from './cursors';
import { dispatch, type DispatchContext } from './dispatcher';
import { Binary, type Document } from 'bson';
import { Store } from './storage/store';
import { TransactionManager } from './transactions/manager';

/** A fresh in-memory server and a function that runs one command on it, throwing on any failure. */
function engineRunner(): (cmd: Record<string, unknown>, db?: string) => Document {
  const store = new Store();
  const ctx: DispatchContext = {
    store,
    cursors: new CursorRegistry(),
    transactions: new TransactionManager(store),
    server: { address: '127.0.0.1:0', setName: 'rs0', connectionId: 1 },
  };
  return (cmd, db = 'bench') => {
    const reply = dispatch(cmd, db, ctx);
    if (reply.ok !== 1 || reply.writeErrors) throw new Error(`command failed: ${JSON.stringify(reply)}`);
    return reply;
  };
}

/**
 * The server's own cost for N single inserts into a collection with a unique index and N equality
 * lookups by that field, calling the command dispatcher directly (no TCP, no driver). Used by the
 * benchmark script and by a test that fails if lookups ever fall back to collection scans.
 */
export function measureEngine(n: number): { insertMs: number; findMs: number } {
  const run = engineRunner();
  run({ createIndexes: 'users', indexes: [{ key: { email: 1 }, name: 'email_1', unique: true }] });
  let start = performance.now();
  for (let i = 0; i < n; i++) run({ insert: 'users', documents: [{ email: `user${i}@example.com`, n: i }] });
  const insertMs = performance.now() - start;
  start = performance.now();
  for (let i = 0; i < n; i++) {
    const reply = run({ find: 'users', filter: { email: `user${i}@example.com` }, limit: 1, singleBatch: true });
    if (reply.cursor.firstBatch[0]?.n !== i) throw new Error(`lookup ${i} failed`);
  }
  const findMs = performance.now() - start;
  return { insertMs, findMs };
}

/**
 * The server's own cost for `n` transactions (read one document by _id, update it, commit) on a collection that
 * already holds `size` documents, with a unique and a low-cardinality index as services have them. A transaction
 * must not pay for the size of what it touches: its cost per transaction should stay flat as `size` grows.
 */
export function measureTransactions(n: number, size: number): { txnMs: number } {
  const run = engineRunner();
  run({
    createIndexes: 'invoices',
    indexes: [
      { key: { companyId: 1, number: 1 }, name: 'number_1', unique: true },
      { key: { companyId: 1, status: 1 }, name: 'status_1' },
    ],
  });
  for (let i = 0; i < size; i += 500) {
    const documents = Array.from({ length: Math.min(500, size - i) }, (_, j) => ({
      _id: i + j,
      companyId: 'c',
      number: `RE-${i + j}`,
      status: 'OPEN',
    }));
    run({ insert: 'invoices', documents });
  }
  const lsid = { id: new Binary(Buffer.alloc(16, 7), 4) };
  const start = performance.now();
  for (let t = 1; t <= n; t++) {
    const txn = { lsid, txnNumber: t, autocommit: false };
    const id = t % size;
    const found = run({ find: 'invoices', filter: { _id: id }, limit: 1, singleBatch: true, ...txn, startTransaction: true });
    if (found.cursor.firstBatch[0]?._id !== id) throw new Error(`lookup ${id} failed`);
    run({ update: 'invoices', updates: [{ q: { _id: id }, u: { $set: { status: t % 2 ? 'PAID' : 'OPEN' } } }], ...txn });
    run({ commitTransaction: 1, ...txn }, 'admin');
  }
  return { txnMs: performance.now() - start };
}
