/**
 * For persistence.int.spec.ts: starts the server on the data directory given as argv[2], then inserts documents
 * one by one (in a transaction for every odd one) and prints "acked <n>" after each acknowledged write, until
 * killed.
 */
import { MongoClient } from 'mongodb';
import { startEmbeddedMongo } from '../api';

async function main(): Promise<void> {
  const mongo = await startEmbeddedMongo({ dataDir: process.argv[2] });
  const client = await new MongoClient(mongo.uri, { serverSelectionTimeoutMS: 3000 }).connect();
  const coll = client.db('kill').collection<{ _id: number; pad: string }>('docs');
  const pad = 'x'.repeat(200);
  for (let n = 0; ; n++) {
    if (n % 2) {
      const session = client.startSession();
      await session.withTransaction(async () => {
        await coll.insertOne({ _id: n, pad }, { session });
      });
      await session.endSession();
    } else {
      await coll.insertOne({ _id: n, pad });
    }
    process.stdout.write(`acked ${n}\n`);
  }
}

void main().catch((err) => {
  console.error(err);
  process.exit(1);
});
