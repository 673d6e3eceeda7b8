import { openDataDir } from './persistence/data-dir';
import { EmbeddedMongoServer } from './server';

export interface EmbeddedMongoOptions {
  /** TCP port; 0 or undefined picks a free port. */
  port?: number;
  /** Interface to bind and advertise; default 127.0.0.1. */
  host?: string;
  /** How often TTL indexes remove expired documents (ms); default 60 s, as mongod. */
  ttlIntervalMs?: number;
  /**
   * Keep the data in this directory (created when missing): every acknowledged write is in its journal (fsynced
   * before the answer), and the next start reads it back, also after `kill -9`. Without it, data is kept in memory
   * only. A directory that cannot be used makes the start fail with EmbeddedMongoDataError.
   */
  dataDir?: string;
  /** With dataDir: compact the journal into a snapshot once it grows past this many bytes (default 64 MiB). */
  compactAfterBytes?: number;
}

export interface EmbeddedMongo {
  /** Connection string that works with and without `directConnection=true`. */
  uri: string;
  port: number;
  stop(): Promise<void>;
}

export interface ResolvedMongo {
  uri: string;
  stop(): Promise<void>;
  /** True when the embedded server was started (MONGO_URL was not set). */
  embedded: boolean;
}

const REPLICA_SET = 'rs0';

/** Starts an in-process MongoDB-wire-compatible server (development and tests only). */
export async function startEmbeddedMongo(opts: EmbeddedMongoOptions = {}): Promise<EmbeddedMongo> {
  if (process.env.NODE_ENV === 'production') {
    throw new Error(
      'Refusing to start: the embedded MongoDB is a development/test tool, not a production store. ' +
        'Set MONGO_URL to a real MongoDB in production.',
    );
  }
  const data = opts.dataDir ? await openDataDir(opts.dataDir, { compactAfterBytes: opts.compactAfterBytes }) : undefined;
  const server = new EmbeddedMongoServer({
    host: opts.host,
    port: opts.port,
    setName: REPLICA_SET,
    ttlIntervalMs: opts.ttlIntervalMs,
    store: data?.store,
    journal: data?.journal,
  });
  let address: { host: string; port: number };
  try {
    address = await server.listen();
  } catch (err) {
    await server.close();
    throw err;
  }
  const { host, port } = address;
  return {
    uri: `mongodb://${host}:${port}/?replicaSet=${REPLICA_SET}`,
    port,
    stop: () => server.close(),
  };
}

/**
 * The MongoDB to use: MONGO_URL when set (the embedded server is then never started), otherwise
 * a freshly started embedded server.
 */
export async function resolveMongoUri(embedded: EmbeddedMongoOptions = {}): Promise<ResolvedMongo> {
  const external = process.env.MONGO_URL;
  if (external) return { uri: external, stop: async () => undefined, embedded: false };
  const started = await startEmbeddedMongo(embedded);
  return { uri: started.uri, stop: started.stop, embedded: true };
}
