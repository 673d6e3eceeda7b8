import mongoose, { type Connection } from 'mongoose';
import { startEmbeddedMongo } from '@inv/embedded-mongo';
import { createCounters } from './counters';

jest.setTimeout(30_000);

describe('counters', () => {
  let mongo: Awaited<ReturnType<typeof startEmbeddedMongo>>;
  let conn: Connection;
  let increments = 0;

  beforeAll(async () => {
    mongo = await startEmbeddedMongo();
    conn = await mongoose.createConnection(mongo.uri, { dbName: 'counters_test', monitorCommands: true }).asPromise();
    conn.getClient().on('commandStarted', (e) => {
      if (e.commandName === 'findAndModify') increments++;
    });
  });
  afterAll(async () => {
    await conn?.close();
    await mongo?.stop();
  });

  it('hands out ids in blocks: unique with next() and other processes, one round trip per block', async () => {
    const a = createCounters(conn);
    const b = createCounters(conn); // another process on the same database
    const first = await a.next('ids');
    const before = increments;
    const takeA = a.inBlocks('ids', 10);
    const takeB = b.inBlocks('ids', 10);
    const fromA = await Promise.all(Array.from({ length: 25 }, () => takeA()));
    const fromB = await Promise.all(Array.from({ length: 5 }, () => takeB()));
    const after = await a.next('ids');
    expect(increments - before).toBe(3 + 1 + 1); // three blocks for a, one for b, the last next()
    const all = [first, ...fromA, ...fromB, after];
    expect(new Set(all).size).toBe(all.length);
    expect(fromA).toEqual([...fromA].sort((x, y) => x - y)); // increasing within one process
    expect(Math.min(...fromA, ...fromB)).toBeGreaterThan(first);
    expect(after).toBeGreaterThan(Math.max(...fromA, ...fromB));
  });
});
