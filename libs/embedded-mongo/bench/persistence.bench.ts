/**
 * What keeping the data costs: 1,000 single inserts and 1,000 small transactions acknowledged with a data
 * directory (journal fsynced before each answer) and without (memory only), through the official driver over TCP
 * with the server in this process; then the restart time of a data directory holding 50,000 documents, read from
 * the journal and from a snapshot. Run: npx tsx libs/embedded-mongo/bench/persistence.bench.ts
 */
import { MongoClient } from 'mongodb';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedMongo } from '../src/index';

const N = 1_000;
const DOCS = 50_000;

async function timed(label: string, n: number, fn: () => Promise<void>): Promise<void> {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  await fn();
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  console.log(
    `${label.padEnd(44)} wall ${ms.toFixed(0).padStart(6)} ms (${((ms * 1000) / n).toFixed(0).padStart(5)} µs/op)  ` +
      `cpu ${cpuMs.toFixed(0).padStart(6)} ms (${((cpuMs * 1000) / n).toFixed(0).padStart(5)} µs/op)`,
  );
}

async function writes(label: string, dataDir: string | undefined): Promise<void> {
  const mongo = await startEmbeddedMongo({ dataDir });
  const client = await new MongoClient(mongo.uri).connect();
  const coll = client.db('bench').collection<{ _id: number; n?: number; pad?: string }>('c');
  await coll.insertOne({ _id: -1, n: 0 });
  const pad = 'x'.repeat(200);
  const inserts = async (from: number, n: number) => {
    for (let i = from; i < from + n; i++) await coll.insertOne({ _id: i, pad });
  };
  const transactions = async (from: number, n: number) => {
    const session = client.startSession();
    for (let i = from; i < from + n; i++) {
      await session.withTransaction(async () => {
        await coll.insertOne({ _id: i, pad }, { session });
        await coll.updateOne({ _id: -1 }, { $inc: { n: 1 } }, { session });
      });
    }
    await session.endSession();
  };
  await inserts(1_000_000, 200); // warm-up
  await transactions(2_000_000, 200);
  await timed(`${label}: ${N} single inserts`, N, () => inserts(0, N));
  await timed(`${label}: ${N} transactions (insert + update)`, N, () => transactions(N, N));
  await client.close();
  await mongo.stop();
}

async function restart(label: string, dir: string, compactAfterBytes: number): Promise<void> {
  const start = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const mongo = await startEmbeddedMongo({ dataDir: dir, compactAfterBytes });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const used = process.cpuUsage(cpu);
  console.log(
    `${label.padEnd(44)} wall ${ms.toFixed(0).padStart(6)} ms  cpu ${((used.user + used.system) / 1000).toFixed(0).padStart(6)} ms`,
  );
  await mongo.stop();
}

async function main(): Promise<void> {
  console.log(
    `embedded-mongo persistence benchmark, node ${process.version}, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'emb-mongo-bench-'));
  try {
    await writes('memory only', undefined);
    await writes('dataDir', join(dir, 'writes'));
    await writes('memory only (again)', undefined);

    const big = join(dir, 'big');
    const mongo = await startEmbeddedMongo({ dataDir: big, compactAfterBytes: 1 << 30 });
    const client = await new MongoClient(mongo.uri).connect();
    const coll = client.db('bench').collection('invoices');
    await coll.createIndex({ companyId: 1, number: 1 }, { unique: true });
    for (let b = 0; b < DOCS; b += 1_000) {
      await coll.insertMany(
        Array.from({ length: 1_000 }, (_, i) => ({
          companyId: `c${(b + i) % 50}`,
          number: `INV-${b + i}`,
          total: b + i,
          lines: [{ text: 'consulting', qty: 1, price: 100 }],
          at: new Date(),
        })),
      );
    }
    await client.close();
    await mongo.stop();
    await restart(`restart, ${DOCS} documents from the journal`, big, 1 << 30);
    // a small bound compacts on the first write after this start
    const again = await startEmbeddedMongo({ dataDir: big, compactAfterBytes: 1 });
    const c2 = await new MongoClient(again.uri).connect();
    await c2.db('bench').collection('other').insertOne({ x: 1 });
    await c2.close();
    await again.stop(); // waits for the compaction
    await restart(`restart, ${DOCS} documents from a snapshot`, big, 1 << 30);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
