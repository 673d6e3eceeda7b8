import mongoose, { Schema, type Connection } from 'mongoose';
import { startEmbeddedMongo } from '@inv/embedded-mongo';
import { createChanges } from './commit';
import { groupCommit } from './group-commit';
import { createOutbox } from './outbox';

jest.setTimeout(30_000);

/** Group commit: messages that arrive together commit together, each once, in order per key. */
describe('groupCommit', () => {
  let mongo: Awaited<ReturnType<typeof startEmbeddedMongo>>;
  let conn: Connection;

  beforeAll(async () => {
    mongo = await startEmbeddedMongo();
    conn = await mongoose.createConnection(mongo.uri, { dbName: 'group_commit_test' }).asPromise();
  });
  afterAll(async () => {
    await conn?.close();
    await mongo?.stop();
  });

  type Item = { id: string; companyId: string; type: string; n: number };
  const item = (companyId: string, n: number, id = `${companyId}-${n}`): Item => ({ id, companyId, type: 'thing.happened.v1', n });

  const setup = (failOn?: number) => {
    const changes = createChanges(conn, createOutbox(conn), () => undefined);
    const log = conn.models.Log ?? conn.model('Log', new Schema({ _id: String, ns: [Number] }, { versionKey: false }), 'logs');
    const batches: number[][] = [];
    const record = groupCommit<Item>(changes, {
      key: (i) => i.companyId,
      inbox: (i) => i,
      lingerMs: 20,
      async apply(batch, session) {
        batches.push(batch.map((i) => i.n));
        if (batch.some((i) => i.n === failOn)) throw new Error(`item ${failOn} cannot be applied`);
        for (const i of batch) await log.updateOne({ _id: i.companyId }, { $push: { ns: i.n } }, { upsert: true, session });
      },
    });
    const logOf = async (companyId: string) => ((await log.findById(companyId).lean<{ ns: number[] }>()) ?? { ns: [] }).ns;
    return { changes, record, batches, logOf };
  };

  it('applies what arrives together in one transaction, each item once and in arrival order per key', async () => {
    const { record, batches, logOf } = setup();
    await Promise.all(Array.from({ length: 30 }, (_, n) => record(item('a', n))).concat([record(item('b', 1))]));
    expect(await logOf('a')).toEqual(Array.from({ length: 30 }, (_, n) => n));
    expect(await logOf('b')).toEqual([1]);
    expect(batches.length).toBeLessThan(10); // not one transaction per item
    expect(batches.every((b) => new Set(b).size === b.length)).toBe(true);
  });

  it('skips an item applied before, also inside a batch, and applies the others of that batch', async () => {
    const { record, logOf } = setup();
    await record(item('c', 1));
    await Promise.all([record(item('c', 2)), record(item('c', 1)), record(item('c', 3)), record(item('c', 1))]);
    expect((await logOf('c')).sort()).toEqual([1, 2, 3]);
  });

  it('fails only the item that cannot be applied (the bus retries it alone); the others commit', async () => {
    const { record, logOf } = setup(5);
    const results = await Promise.allSettled([4, 5, 6].map((n) => record(item('d', n))));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((await logOf('d')).sort()).toEqual([4, 6]);
  });
});
