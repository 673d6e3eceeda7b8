import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { startEmbeddedMongo, type EmbeddedMongo } from '../api';
import { EmbeddedMongoServer } from '../server';
import { EmbeddedMongoDataError, openDataDir } from './data-dir';

const dirs: string[] = [];
function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'emb-mongo-data-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function withServer<T>(
  dataDir: string,
  fn: (client: MongoClient, mongo: EmbeddedMongo) => Promise<T>,
  compactAfterBytes?: number,
): Promise<T> {
  const mongo = await startEmbeddedMongo({ dataDir, compactAfterBytes });
  const client = await new MongoClient(mongo.uri, { serverSelectionTimeoutMS: 3000 }).connect();
  try {
    return await fn(client, mongo);
  } finally {
    await client.close();
    await mongo.stop();
  }
}

const journalOf = (dir: string) =>
  join(
    dir,
    readdirSync(dir)
      .filter((f) => f.startsWith('journal-'))
      .sort()
      .at(-1)!,
  );
const listing = (dir: string) =>
  readdirSync(dir)
    .sort()
    .map((f) => [f, statSync(join(dir, f)).size]);

describe('embedded MongoDB with a data directory', () => {
  it('keeps documents, indexes and committed transactions across a restart, but not aborted ones', async () => {
    const dir = freshDir();
    await withServer(dir, async (client) => {
      const db = client.db('keep');
      await db.collection('users').createIndex({ email: 1 }, { unique: true, name: 'email_1' });
      await db.collection('users').insertMany([
        { _id: 1 as never, email: 'a@x', n: 1 },
        { _id: 2 as never, email: 'b@x', n: 2 },
      ]);
      await db.collection('users').updateOne({ _id: 1 as never }, { $set: { n: 10 } });
      await db.collection('users').deleteOne({ _id: 2 as never });
      await db.collection('gone').insertOne({ x: 1 });
      await db.collection('gone').drop();
      await client.db('dropped').collection('c').insertOne({ x: 1 });
      await client.db('dropped').dropDatabase();
      await db.collection('users').createIndex({ n: 1 }, { name: 'n_1' });
      await db.collection('users').dropIndex('n_1');
      const session = client.startSession();
      await session.withTransaction(async () => {
        await db.collection('users').insertOne({ _id: 3 as never, email: 'c@x' }, { session });
        await db.collection('ledger').insertOne({ _id: 'l1' as never, amount: 5 }, { session });
      });
      session.startTransaction();
      await db.collection('users').insertOne({ _id: 4 as never, email: 'd@x' }, { session });
      await session.abortTransaction();
      await session.endSession();
    });
    await withServer(dir, async (client) => {
      const db = client.db('keep');
      expect(await db.collection('users').find().sort({ _id: 1 }).toArray()).toEqual([
        { _id: 1, email: 'a@x', n: 10 },
        { _id: 3, email: 'c@x' },
      ]);
      expect(await db.collection('ledger').find().toArray()).toEqual([{ _id: 'l1', amount: 5 }]);
      expect((await db.listCollections().toArray()).map((c) => c.name).sort()).toEqual(['ledger', 'users']);
      expect((await client.db().admin().listDatabases()).databases.map((d) => d.name)).not.toContain('dropped');
      expect((await db.collection('users').indexes()).map((i) => i.name)).toEqual(['_id_', 'email_1']);
      await expect(db.collection('users').insertOne({ email: 'a@x' })).rejects.toMatchObject({ code: 11000 });
    });
  });

  it('keeps a write acknowledged right before kill -9', async () => {
    const dir = freshDir();
    const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'kill-child.ts'), dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const last = await new Promise<number>((resolve, reject) => {
      let out = '';
      child.once('exit', (code) => reject(new Error(`child exited (${code}): ${stderr}`)));
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const acked = [...out.matchAll(/acked (\d+)\n/g)].map((m) => Number(m[1]));
        if (acked.length && acked.at(-1)! >= 40) {
          child.removeAllListeners('exit');
          child.kill('SIGKILL'); // right after an acknowledged write, while the next ones are under way
          resolve(acked.at(-1)!);
        }
      });
    });
    await new Promise((r) => child.once('exit', r));
    await withServer(dir, async (client) => {
      const ids = (await client.db('kill').collection('docs').find().sort({ _id: 1 }).toArray()).map((d) => d._id as unknown as number);
      expect(ids.length).toBeGreaterThanOrEqual(last + 1);
      expect(ids.slice(0, last + 1)).toEqual([...Array(last + 1).keys()]);
    });
  }, 60_000);

  it('recovers everything before a journal record cut in half, and cuts the file there', async () => {
    const dir = freshDir();
    await withServer(dir, async (client) => {
      for (let i = 0; i < 5; i++)
        await client
          .db('t')
          .collection('c')
          .insertOne({ _id: i as never });
    });
    const file = journalOf(dir);
    const full = statSync(file).size;
    // the last group commit holds an insert frame (~60 bytes) and a commit frame: cut into the insert
    truncateSync(file, full - 30);
    await withServer(dir, async (client) => {
      expect((await client.db('t').collection('c').find().toArray()).map((d) => d._id)).toEqual([0, 1, 2, 3]);
      expect(statSync(file).size).toBeLessThan(full - 30); // the torn record is cut off
      await client
        .db('t')
        .collection('c')
        .insertOne({ _id: 9 as never });
    });
    await withServer(dir, async (client) => {
      expect((await client.db('t').collection('c').find().toArray()).map((d) => d._id)).toEqual([0, 1, 2, 3, 9]);
    });
  });

  it('refuses a journal damaged in its middle and a newer format with EmbeddedMongoDataError, deleting nothing', async () => {
    const dir = freshDir();
    await withServer(dir, async (client) => {
      for (let i = 0; i < 5; i++)
        await client
          .db('t')
          .collection('c')
          .insertOne({ _id: i as never, pad: 'p'.repeat(50) });
    });
    const file = journalOf(dir);
    const bytes = readFileSync(file);
    bytes.fill(0x41, 150, 170);
    writeFileSync(file, bytes);
    writeFileSync(join(dir, 'snapshot.tmp'), 'left by a compaction'); // not removed either when the start fails
    const before = listing(dir);
    const err = await startEmbeddedMongo({ dataDir: dir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EmbeddedMongoDataError);
    expect((err as EmbeddedMongoDataError).message).toContain(file);
    expect((err as EmbeddedMongoDataError).message).toMatch(/--fresh/);
    expect(listing(dir)).toEqual(before);

    const newer = freshDir();
    writeFileSync(join(newer, 'FORMAT'), '2\n');
    writeFileSync(join(newer, 'journal-00000001.log'), 'data');
    await expect(startEmbeddedMongo({ dataDir: newer })).rejects.toMatchObject({
      name: 'EmbeddedMongoDataError',
      reason: 'newer-format',
      message: expect.stringContaining('newer version'),
    });
    expect(readdirSync(newer).sort()).toEqual(['FORMAT', 'journal-00000001.log']);
  });

  it('compacts the journal into a snapshot and reads it back', async () => {
    const dir = freshDir();
    await withServer(
      dir,
      async (client) => {
        const c = client.db('t').collection('c');
        await c.createIndex({ k: 1 }, { unique: true });
        for (let i = 0; i < 200; i++) await c.insertOne({ _id: i as never, k: `k${i}`, pad: 'p'.repeat(100) });
        await c.deleteMany({ _id: { $lt: 50 } as never });
        // wait for the compaction started by the last writes to finish
        for (let i = 0; i < 100 && !existsSync(join(dir, 'snapshot.bson')); i++) await new Promise((r) => setTimeout(r, 20));
      },
      8 * 1024,
    );
    expect(existsSync(join(dir, 'snapshot.bson'))).toBe(true);
    expect(readdirSync(dir).filter((f) => f.startsWith('journal-')).length).toBe(1);
    writeFileSync(join(dir, 'snapshot.tmp'), 'half a snapshot: a compaction killed midway'); // ignored and removed
    await withServer(dir, async (client) => {
      const c = client.db('t').collection('c');
      expect(await c.countDocuments()).toBe(150);
      expect(await c.findOne({ _id: 199 as never })).toMatchObject({ k: 'k199' });
      await expect(c.insertOne({ k: 'k100' })).rejects.toMatchObject({ code: 11000 });
    });
    expect(existsSync(join(dir, 'snapshot.tmp'))).toBe(false);
  });

  it('loses nothing when compactions run between concurrent writes', async () => {
    const dir = freshDir();
    await withServer(
      dir,
      async (client) => {
        const c = client.db('t').collection('c');
        await Promise.all(
          Array.from({ length: 20 }, async (_, w) => {
            for (let i = 0; i < 30; i++) {
              await c.insertOne({ _id: `${w}-${i}` as never, pad: 'p'.repeat(100) });
              if (i % 3 === 0) await c.updateOne({ _id: `${w}-${i}` as never }, { $set: { updated: true } });
            }
          }),
        );
      },
      4 * 1024,
    );
    expect(existsSync(join(dir, 'snapshot.bson'))).toBe(true);
    await withServer(dir, async (client) => {
      const c = client.db('t').collection('c');
      expect(await c.countDocuments()).toBe(600);
      expect(await c.countDocuments({ updated: true })).toBe(200);
    });
  });

  it('says which directory cannot be written', async () => {
    const parent = freshDir();
    writeFileSync(join(parent, 'file'), '');
    await expect(startEmbeddedMongo({ dataDir: join(parent, 'file', 'data') })).rejects.toMatchObject({
      name: 'EmbeddedMongoDataError',
      reason: 'unwritable',
      message: expect.stringContaining(`cannot write to ${join(parent, 'file', 'data')}`),
    });
  });

  it('journals TTL deletions', async () => {
    const dir = freshDir();
    const mongo = await startEmbeddedMongo({ dataDir: dir, ttlIntervalMs: 50 });
    const client = await new MongoClient(mongo.uri, { serverSelectionTimeoutMS: 3000 }).connect();
    const c = client.db('t').collection('ttl');
    await c.createIndex({ at: 1 }, { expireAfterSeconds: 0 });
    await c.insertMany([{ _id: 'old' as never, at: new Date(Date.now() - 60_000) }, { _id: 'keep' as never }]);
    for (let i = 0; i < 100 && (await c.countDocuments()) > 1; i++) await new Promise((r) => setTimeout(r, 50));
    await client.close();
    await mongo.stop();
    await withServer(dir, async (again) => {
      expect((await again.db('t').collection('ttl').find().toArray()).map((d) => d._id)).toEqual(['keep']);
    });
  });

  it('refuses a second server on a directory in use', async () => {
    const dir = freshDir();
    const first = await startEmbeddedMongo({ dataDir: dir });
    try {
      await expect(startEmbeddedMongo({ dataDir: dir })).rejects.toMatchObject({ name: 'EmbeddedMongoDataError', reason: 'in-use' });
    } finally {
      await first.stop();
    }
    await (await startEmbeddedMongo({ dataDir: dir })).stop();
    // a LOCK left by a killed process: another pid, or this pid in an earlier life (containers reuse pids)
    for (const stale of ['999999 1\n', `${process.pid} 1\n`]) {
      writeFileSync(join(dir, 'LOCK'), stale);
      await (await startEmbeddedMongo({ dataDir: dir })).stop();
      expect(existsSync(join(dir, 'LOCK'))).toBe(false);
    }
  });

  it('fails a write that cannot be saved, acknowledges none after it, and keeps what was saved', async () => {
    const dir = freshDir();
    const { store, journal } = await openDataDir(dir);
    const server = new EmbeddedMongoServer({ store, journal });
    const { host, port } = await server.listen();
    const client = await new MongoClient(`mongodb://${host}:${port}/?directConnection=true`, {
      serverSelectionTimeoutMS: 3000,
      retryWrites: false,
    }).connect();
    try {
      const c = client.db('t').collection('c');
      await c.insertOne({ _id: 'saved' as never });
      // the journal's file becomes unwritable underneath the server (as a full or read-only disk would)
      await (journal as unknown as { fh: { close(): Promise<void> } }).fh.close();
      await expect(c.insertOne({ _id: 'lost' as never })).rejects.toMatchObject({
        code: 1,
        message: expect.stringContaining('could not be saved'),
      });
      await expect(c.insertOne({ _id: 'refused' as never })).rejects.toMatchObject({
        code: 1,
        message: expect.stringContaining('restart'),
      });
      expect(await c.findOne({ _id: 'saved' as never })).not.toBeNull();
    } finally {
      await client.close();
      await server.close();
    }
    await withServer(dir, async (again) => {
      expect((await again.db('t').collection('c').find().toArray()).map((d) => d._id)).toEqual(['saved']);
    });
  });
});
