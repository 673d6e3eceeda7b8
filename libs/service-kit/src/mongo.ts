import mongoose, { type Connection } from 'mongoose';

/**
 * One mongoose connection per service, to the service's own database (`invoicing_<service>` in
 * production). Strict query filters: unknown filter keys throw instead of matching everything.
 */
export async function connectMongo(uri: string, dbName: string): Promise<Connection> {
  const conn = mongoose.createConnection(uri, {
    dbName,
    serverSelectionTimeoutMS: 10_000,
    autoIndex: true,
  });
  conn.set('strictQuery', 'throw');
  await conn.asPromise();
  return conn;
}

export function mongoReady(conn: Connection): boolean {
  return conn.readyState === 1;
}
