import mongoose, { type Connection, type Model, type mongo } from 'mongoose';

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

/**
 * The driver's collection behind a mongoose model, for hot writes of documents our own code builds with the
 * schema's types: mongoose casts and validates every field of every document (each element of an array) on
 * each write, which can cost more than the write itself. Write with {@link AS_BUILT}.
 */
export function driverCollection<T extends mongo.Document>(model: Model<T>): mongo.Collection<T> {
  return model.collection as unknown as mongo.Collection<T>;
}

/** Write options for {@link driverCollection}: an absent optional field stays absent (as mongoose leaves it), never null. */
export const AS_BUILT = { ignoreUndefined: true } as const;
