import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
// s3rver ships no type declarations; its API is the documented `new S3rver(opts).run()/close()`.
type S3rverClass = new (opts: Record<string, unknown>) => {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer?: Server;
};

export interface EmbeddedS3 {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  stop(): Promise<void>;
}

/**
 * Local S3-compatible server (s3rver) for development and tests, started by the launcher (`npm start`) and the
 * tests, never by a service. It verifies V4 signatures and presigned-link expiry like S3 does. Never used in production.
 * Its files live in `directory` (npm start: `<DATA_DIR>/objects`, kept across restarts); without one, in a temporary
 * directory removed on stop.
 */
export async function startEmbeddedS3(opts: { port?: number; directory?: string; buckets?: string[] } = {}): Promise<EmbeddedS3> {
  if (process.env.NODE_ENV === 'production') {
    throw new Error('the embedded S3 server (s3rver) is a development/test tool; set S3_ENDPOINT in production');
  }
  // required here, not at the top: every service that stores files imports this library, and in production
  // (a real object store) s3rver and its Koa stack would only take memory
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const S3rver = require('s3rver') as S3rverClass;
  const ownDir = !opts.directory;
  const directory = opts.directory ?? mkdtempSync(join(tmpdir(), 's3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: opts.port ?? 0,
    silent: true,
    directory,
    configureBuckets: (opts.buckets ?? []).map((name) => ({ name, configs: [] })),
  });
  const address = await server.run();
  // Clients drop idle sockets after 4 s (object-store.ts); the server keeps them well beyond that, so it is
  // never the side that closes a socket a client is about to reuse.
  if (server.httpServer) server.httpServer.keepAliveTimeout = 30_000;
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    accessKey: 'S3RVER',
    secretKey: 'S3RVER',
    stop: async () => {
      await server.close();
      if (ownDir) rmSync(directory, { recursive: true, force: true });
    },
  };
}
