import { connect, type Socket } from 'node:net';
import { deserialize, Long, type Document } from 'bson';
import fc from 'fast-check';
import { MongoClient } from 'mongodb';
import { startEmbeddedMongo, type EmbeddedMongo } from './api';
import { OP_MSG, OP_REPLY } from './wire/codec';
import { buildMsg, buildQuery, header } from './wire/test-frames';

/**
 * Sends raw bytes and collects the answer: waits for `replies` complete messages (or the server
 * closing the socket); with `replies = 0`, waits for `quietMs` of silence or a close instead.
 */
async function exchange(port: number, bytes: Buffer, replies = 1, quietMs = 200): Promise<{ data: Buffer; closed: boolean }> {
  const socket: Socket = connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  return new Promise((resolve) => {
    let closed = false;
    let finished = false;
    const timer = setTimeout(done, replies ? 10_000 : quietMs);
    function done() {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ data: Buffer.concat(chunks), closed });
    }
    function complete(): number {
      const data = Buffer.concat(chunks);
      let n = 0;
      for (let off = 0; off + 4 <= data.length && off + data.readInt32LE(off) <= data.length; off += data.readInt32LE(off)) n++;
      return n;
    }
    socket.on('data', (c) => {
      chunks.push(c);
      if (replies && complete() >= replies) done();
    });
    socket.on('close', () => {
      closed = true;
      done();
    });
    socket.on('error', () => undefined);
    socket.write(bytes);
  });
}

describe('embedded server on the wire', () => {
  let mongo: EmbeddedMongo;
  beforeAll(async () => {
    mongo = await startEmbeddedMongo();
  });
  afterAll(async () => {
    await mongo.stop();
  });

  it('answers a legacy OP_QUERY ismaster with an OP_REPLY advertising a replica set primary', async () => {
    const { data } = await exchange(mongo.port, buildQuery('admin.$cmd', { ismaster: 1, helloOk: true }));
    expect(data.readInt32LE(12)).toBe(OP_REPLY);
    const reply = deserialize(data.subarray(36));
    expect(reply).toMatchObject({
      ismaster: true,
      helloOk: true,
      setName: 'rs0',
      hosts: [`127.0.0.1:${mongo.port}`],
      me: `127.0.0.1:${mongo.port}`,
      primary: `127.0.0.1:${mongo.port}`,
      ok: 1,
    });
    expect(reply.maxWireVersion).toBeGreaterThanOrEqual(9);
    expect(reply.maxWireVersion).toBeLessThanOrEqual(24);
    expect(reply.topologyVersion).toBeUndefined();
  });

  it('answers an unknown command with CommandNotFound (59) and keeps serving', async () => {
    const { data, closed } = await exchange(
      mongo.port,
      Buffer.concat([buildMsg({ frobnicate: 1, $db: 'x' }), buildMsg({ ping: 1, $db: 'admin' })]),
      2,
    );
    expect(closed).toBe(false);
    expect(data.readInt32LE(12)).toBe(OP_MSG);
    const first = deserialize(data.subarray(21, data.readInt32LE(0)));
    expect(first).toMatchObject({ ok: 0, code: 59, codeName: 'CommandNotFound' });
    const second = deserialize(data.subarray(data.readInt32LE(0) + 21));
    expect(second).toEqual({ ok: 1 });
  });

  it('sends nothing for moreToCome, accepts checksums and kind-1 sequences', async () => {
    const insert = buildMsg({ insert: 'wire', $db: 'wiretest' }, { sequences: { documents: [{ _id: 1 }, { _id: 2 }] }, flags: 2 });
    const count = buildMsg({ count: 'wire', query: { _id: 2 }, $db: 'wiretest' }, { checksum: true });
    // One connection, two requests: the first answer must be the count's ({ n: 1 }), not an
    // insert acknowledgement ({ n: 2 }).
    const { data } = await exchange(mongo.port, Buffer.concat([insert, count]));
    expect(data.readInt32LE(0)).toBe(data.length);
    expect(deserialize(data.subarray(21))).toEqual({ n: 1, ok: 1 });
  });

  it('closes the connection on oversized, undersized, garbled and unknown-opcode messages without crashing', async () => {
    const oversized = Buffer.alloc(16);
    oversized.writeInt32LE(64 * 1024 * 1024);
    const undersized = Buffer.alloc(16);
    undersized.writeInt32LE(4);
    const garbled = Buffer.concat([header(30, 1, OP_MSG), Buffer.alloc(4), Buffer.from([0]), Buffer.from([9, 0, 0, 0, 3, 0, 0, 0, 0])]);
    for (const bad of [oversized, undersized, garbled, header(16, 1, 2002), header(20, 1, 2012)]) {
      const r = await exchange(mongo.port, Buffer.concat([bad, Buffer.alloc(4)]), 0, 2000);
      expect(r.closed).toBe(true);
    }
    const truncated = buildMsg({ ping: 1 }).subarray(0, 18);
    const r = await exchange(mongo.port, truncated, 0);
    expect(r.data.length).toBe(0);
    const ok = await exchange(mongo.port, buildMsg({ ping: 1, $db: 'admin' }));
    expect(deserialize(ok.data.subarray(21))).toEqual({ ok: 1 });
  });

  it('survives random garbage after a plausible header (fuzz) and keeps answering', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(OP_MSG, 2004, 2012, 1, 9999),
        fc.uint8Array({ minLength: 0, maxLength: 64 }),
        async (opCode, junk) => {
          const bytes = Buffer.concat([header(16 + junk.length, 1, opCode), Buffer.from(junk)]);
          await exchange(mongo.port, bytes, 0, 20);
        },
      ),
      { numRuns: 40 },
    );
    const ok = await exchange(mongo.port, buildMsg({ ping: 1, $db: 'admin' }));
    expect(deserialize(ok.data.subarray(21))).toEqual({ ok: 1 });
  });

  it('answers malformed commands with error replies instead of failing', async () => {
    const bad = [
      { insert: 5 },
      { insert: 'c', documents: [1, 'x', null] },
      { find: 'c', filter: { $bogus: 1 } },
      { update: 'c', updates: [{ q: 1, u: 2 }] },
      { update: 'c', updates: [{ q: {}, u: { $nope: { a: 1 } } }] },
      { aggregate: 'c', pipeline: [{ $bogus: 1 }], cursor: {} },
      { aggregate: 'c', pipeline: 'x' },
      { getMore: 'x', collection: 'c' },
      { killCursors: 'c', cursors: ['x'] },
      { createIndexes: 'c', indexes: [{ name: 'no key' }] },
      { distinct: 'c', key: 5 },
      { findAndModify: 'c', query: {}, update: 5 },
      { commitTransaction: 1, lsid: { id: 1 }, txnNumber: 1, autocommit: false },
      {},
    ];
    const accepted: unknown[] = [];
    for (const cmd of bad) {
      const { data, closed } = await exchange(mongo.port, buildMsg({ ...cmd, $db: 'malformed' }));
      expect(closed).toBe(false);
      const reply = deserialize(data.subarray(21));
      if (reply.ok !== 1) expect(reply).toMatchObject({ ok: 0, errmsg: expect.any(String), code: expect.any(Number) });
      else if (!(reply.writeErrors ?? reply.cursorsNotFound ?? []).length) accepted.push(cmd);
    }
    expect(accepted).toEqual([]);
  });

  it('answers a connection in order while one of its writes waits for a transaction', async () => {
    const client = await new MongoClient(mongo.uri, { serverSelectionTimeoutMS: 3000 }).connect();
    const session = client.startSession();
    try {
      const coll = client.db('wiretest').collection<{ _id: string; v: number }>('locked');
      await coll.insertOne({ _id: 'w', v: 1 });
      session.startTransaction();
      await coll.updateOne({ _id: 'w' }, { $inc: { v: 1 } }, { session });
      // One connection, two requests: the update waits for the transaction's lock, and the count
      // behind it must be answered after it, not before.
      const update = buildMsg({ update: 'locked', $db: 'wiretest', updates: [{ q: { _id: 'w' }, u: { $inc: { v: 10 } } }] });
      const count = buildMsg({ count: 'locked', query: { v: 12 }, $db: 'wiretest' });
      const answered = exchange(mongo.port, Buffer.concat([update, count]), 2);
      const early = await Promise.race([answered, new Promise<'pending'>((r) => setTimeout(() => r('pending'), 300))]);
      expect(early).toBe('pending');
      await session.commitTransaction();
      const { data } = await answered;
      const first = data.readInt32LE(0);
      expect(deserialize(data.subarray(21, first))).toEqual({ n: 1, nModified: 1, ok: 1 });
      expect(deserialize(data.subarray(first + 21))).toEqual({ n: 1, ok: 1 });
    } finally {
      await session.endSession();
      await client.close();
    }
  });

  it('keeps a connection in order when a waiting write is followed by another one that waits, and by more data', async () => {
    const client = await new MongoClient(mongo.uri, { serverSelectionTimeoutMS: 3000 }).connect();
    const first = client.startSession();
    const second = client.startSession();
    const socket: Socket = connect(mongo.port, '127.0.0.1');
    const connected = new Promise<void>((r) => socket.once('connect', () => r()));
    try {
      const coll = client.db('wiretest').collection<{ _id: string; v: number }>('locked2');
      await coll.insertMany([
        { _id: 'w', v: 1 },
        { _id: 'x', v: 1 },
      ]);
      first.startTransaction();
      await coll.updateOne({ _id: 'w' }, { $inc: { v: 1 } }, { session: first });
      second.startTransaction();
      await coll.updateOne({ _id: 'x' }, { $inc: { v: 1 } }, { session: second });
      const replies: Document[] = [];
      let buffered = Buffer.alloc(0);
      socket.on('data', (chunk: Buffer) => {
        buffered = Buffer.concat([buffered, chunk]);
        while (buffered.length >= 4 && buffered.length >= buffered.readInt32LE(0)) {
          const len = buffered.readInt32LE(0);
          replies.push(deserialize(buffered.subarray(21, len)));
          buffered = buffered.subarray(len);
        }
      });
      await connected;
      const inc = (id: string) => buildMsg({ update: 'locked2', $db: 'wiretest', updates: [{ q: { _id: id }, u: { $inc: { v: 10 } } }] });
      // w waits for the first transaction, x (behind it) for the second; the count comes in a later packet
      socket.write(Buffer.concat([inc('w'), inc('x')]));
      await new Promise((r) => setTimeout(r, 100));
      socket.write(buildMsg({ count: 'locked2', query: { v: 12 }, $db: 'wiretest' }));
      await new Promise((r) => setTimeout(r, 100));
      expect(replies).toEqual([]);
      await first.commitTransaction();
      await new Promise((r) => setTimeout(r, 300));
      // x still waits: the count behind it is not answered yet
      expect(replies).toEqual([{ n: 1, nModified: 1, ok: 1 }]);
      await second.commitTransaction();
      for (let i = 0; i < 50 && replies.length < 3; i++) await new Promise((r) => setTimeout(r, 20));
      expect(replies).toEqual([
        { n: 1, nModified: 1, ok: 1 },
        { n: 1, nModified: 1, ok: 1 },
        { n: 2, ok: 1 },
      ]);
    } finally {
      socket.destroy();
      await first.endSession();
      await second.endSession();
      await client.close();
    }
  });

  it('returns cursor ids as BSON int64', async () => {
    await exchange(mongo.port, buildMsg({ insert: 'cur', $db: 'wiretest', documents: [{ a: 1 }, { a: 2 }, { a: 3 }] }));
    const { data } = await exchange(mongo.port, buildMsg({ find: 'cur', batchSize: 1, $db: 'wiretest' }));
    const reply = deserialize(data.subarray(21), { promoteLongs: false });
    expect(reply.cursor.id).toBeInstanceOf(Long);
    expect(reply.cursor.id.isZero()).toBe(false);
  });

  it('serves the driver with and without directConnection', async () => {
    const base = `mongodb://127.0.0.1:${mongo.port}/`;
    for (const uri of [mongo.uri, `${mongo.uri}&directConnection=true`, base, `${base}?directConnection=true`]) {
      const client = await new MongoClient(uri, { serverSelectionTimeoutMS: 3000 }).connect();
      try {
        const coll = client.db('drv').collection('c');
        await coll.deleteMany({});
        await coll.insertMany(Array.from({ length: 5 }, (_, i) => ({ i })));
        expect(await coll.find().batchSize(2).toArray()).toHaveLength(5);
      } finally {
        await client.close();
      }
    }
  });
});
