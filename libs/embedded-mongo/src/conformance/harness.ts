import { randomBytes } from 'node:crypto';
import mongoose, { type Connection } from 'mongoose';
import { resolveMongoUri, type ResolvedMongo } from '../api';

export interface MongoHarness {
  /** A mongoose connection to a database unique to this test file. */
  conn(): Connection;
  embedded(): boolean;
  uri(): string;
}

/**
 * Connects the suite to MONGO_URL when set, otherwise to a fresh embedded server, so the same
 * conformance tests prove the emulator against a real MongoDB. Each file gets its own database
 * (dropped afterwards) so runs never see each other's data.
 */
export function useMongo(): MongoHarness {
  let mongo: ResolvedMongo | undefined;
  let conn: Connection | undefined;
  beforeAll(async () => {
    mongo = await resolveMongoUri({ ttlIntervalMs: 100 }); // the TTL test waits for a pass
    conn = await mongoose
      .createConnection(mongo.uri, { dbName: `conf_${randomBytes(4).toString('hex')}`, serverSelectionTimeoutMS: 5000, autoIndex: false })
      .asPromise();
  });
  afterAll(async () => {
    await conn?.dropDatabase().catch(() => undefined);
    await conn?.close();
    await mongo?.stop();
  });
  return {
    conn: () => {
      if (!conn) throw new Error('not connected yet');
      return conn;
    },
    embedded: () => mongo?.embedded ?? false,
    uri: () => mongo?.uri ?? '',
  };
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejection(p: Promise<unknown>): Promise<Record<string, unknown> & Error> {
  try {
    await p;
  } catch (err) {
    return err as Record<string, unknown> & Error;
  }
  throw new Error('expected the operation to fail');
}
