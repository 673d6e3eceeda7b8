/**
 * 10,000 single inserts into a collection with a unique index, then 10,000 findOne lookups by
 * that field, through the official driver over TCP. Run: npx tsx libs/embedded-mongo/bench/insert-find.bench.ts
 */
import { MongoClient } from 'mongodb';
import mongoose from 'mongoose';
import { loadavg } from 'node:os';
import { measureEngine } from '../src/engine-bench';
import { resolveMongoUri } from '../src/index';

const N = 10_000;

/** Prints wall-clock and this process's CPU time: on a shared machine the CPU figure is the steadier one. */
async function timed(label: string, fn: () => Promise<void>): Promise<number> {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  await fn();
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  console.log(
    `${label.padEnd(46)} wall ${ms.toFixed(0).padStart(6)} ms  cpu ${cpuMs.toFixed(0).padStart(6)} ms  (${((ms * 1000) / N).toFixed(0)} µs/op)`,
  );
  return ms;
}

async function main(): Promise<void> {
  console.log(
    `embedded-mongo benchmark, N=${N}, node ${process.version}, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const engine = measureEngine(N);
  console.log(`${'engine only: insert x N (unique index)'.padEnd(46)} wall ${engine.insertMs.toFixed(0).padStart(6)} ms`);
  console.log(`${'engine only: find by unique field x N'.padEnd(46)} wall ${engine.findMs.toFixed(0).padStart(6)} ms`);
  // MONGO_URL (e.g. the CLI server in its own process: `npm run -s mongo:embedded`) measures client and
  // server on separate cores, as services use it; unset, the server runs inside this process.
  const mongo = await resolveMongoUri();
  console.log(mongo.embedded ? 'server: in this process' : `server: ${mongo.uri}`);
  const client = await new MongoClient(mongo.uri).connect();
  const coll = client.db('bench').collection<{ email: string; n: number }>('users');
  await coll.createIndex({ email: 1 }, { unique: true });
  // Untimed warm-up so V8 has compiled the driver's and the server's hot paths (the first few
  // thousand operations of a fresh process run several times slower).
  const warm = client.db('bench').collection('warmup');
  await warm.createIndex({ k: 1 }, { unique: true });
  for (let i = 0; i < 3000; i++) {
    await warm.insertOne({ k: i });
    await warm.findOne({ k: i });
  }
  await warm.drop();
  // The driver's own round trip, for context: on a loaded machine it dominates every figure below.
  await timed('driver: ping x N (round-trip floor)', async () => {
    for (let i = 0; i < N; i++) await client.db('admin').command({ ping: 1 });
  });
  await timed('driver: insertOne x N (unique index)', async () => {
    for (let i = 0; i < N; i++) await coll.insertOne({ email: `user${i}@example.com`, n: i });
  });
  await timed('driver: findOne by unique field x N', async () => {
    for (let i = 0; i < N; i++) {
      const d = await coll.findOne({ email: `user${i}@example.com` });
      if (d?.n !== i) throw new Error(`lookup ${i} returned ${JSON.stringify(d)}`);
    }
  });
  await client.close();

  const conn = await mongoose.createConnection(mongo.uri, { dbName: 'bench_mongoose' }).asPromise();
  const User = conn.model('User', new mongoose.Schema({ email: { type: String, unique: true }, n: Number }));
  await User.init();
  const Warm = conn.model('Warm', new mongoose.Schema({ k: { type: Number, unique: true } }));
  await Warm.init();
  for (let i = 0; i < 3000; i++) {
    await Warm.create({ k: i });
    await Warm.findOne({ k: i }).lean();
  }
  await timed('mongoose: Model.create x N (unique index)', async () => {
    for (let i = 0; i < N; i++) await User.create({ email: `user${i}@example.com`, n: i });
  });
  await timed('mongoose: findOne().lean() by unique field x N', async () => {
    for (let i = 0; i < N; i++) {
      const d = await User.findOne({ email: `user${i}@example.com` }).lean();
      if (d?.n !== i) throw new Error(`lookup ${i} failed`);
    }
  });
  await conn.close();
  await mongo.stop();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
