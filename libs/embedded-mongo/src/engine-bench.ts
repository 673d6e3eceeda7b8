import { CursorRegistry } from './cursors';
import { dispatch, type DispatchContext } from './dispatcher';
import { Store } from './storage/store';
import { TransactionManager } from './transactions/manager';

/**
 * The server's own cost for N single inserts into a collection with a unique index and N equality
 * lookups by that field, calling the command dispatcher directly (no TCP, no driver). Used by the
 * benchmark script and by a test that fails if lookups ever fall back to collection scans.
 */
export function measureEngine(n: number): { insertMs: number; findMs: number } {
  const store = new Store();
  const ctx: DispatchContext = {
    store,
    cursors: new CursorRegistry(),
    transactions: new TransactionManager(store),
    server: { address: '127.0.0.1:0', setName: 'rs0', connectionId: 1 },
  };
  const run = (cmd: Record<string, unknown>) => {
    const reply = dispatch(cmd, 'bench', ctx);
    if (reply.ok !== 1 || reply.writeErrors) throw new Error(`command failed: ${JSON.stringify(reply)}`);
    return reply;
  };
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
