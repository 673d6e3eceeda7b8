import { randomBytes } from 'node:crypto';
import { createBus, type Bus } from '@inv/bus';
import { messages, type Messages } from '@inv/contracts';
import { resolveMongoUri } from '@inv/embedded-mongo';
import { startEmbeddedS3, type EmbeddedS3 } from '@inv/objects';
import { createIdentitySigner, IDENTITY_HEADER } from '@inv/service-kit';

/**
 * The identity-token key of this test process: testEnv() passes it to services under test (and to the
 * gateway, which signs with it), and identityHeaders() signs with it, as the gateway does.
 */
export const TEST_IDENTITY_KEY = `test-identity-key-${randomBytes(16).toString('hex')}`;
const testSigner = createIdentitySigner([TEST_IDENTITY_KEY]);

/**
 * Headers a service expects from the gateway for `companyId` (a signed identity token), for tests that
 * call a service directly. `internal: true` gives the gateway's own identity (for /internal/* endpoints).
 */
export async function identityHeaders(
  companyId: string | { internal: true },
  extra: { keyId?: string; plan?: string; role?: string; idempotencyKey?: string; idempotencyFingerprint?: string } = {},
): Promise<Record<string, string>> {
  const token =
    typeof companyId === 'string'
      ? await testSigner.sign({
          scope: 'company',
          companyId,
          keyId: extra.keyId ?? 'test-key',
          role: extra.role,
          plan: extra.plan ?? 'pro',
          idempotencyKey: extra.idempotencyKey,
          idempotencyFingerprint: extra.idempotencyFingerprint,
        })
      : await testSigner.sign({ scope: 'internal' });
  return { [IDENTITY_HEADER]: token };
}

/**
 * A JSON client for a service called directly, as the gateway calls it (signed identity of `companyId`):
 * `call(method, path, body?)` answers `{status, body}` (the body parsed when there is one). `base` is read at
 * each call, so a test may start the service after creating the client.
 */
export function serviceCaller(base: () => string, companyId: string) {
  return async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base()}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(await identityHeaders(companyId)) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    // test helpers read answers loosely
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as any };
  };
}

/** A name prefix unique to this test run: queues, exchanges, Redis keys and databases carry it. */
export function uniquePrefix(kind = 't'): string {
  return `${kind}-${randomBytes(4).toString('hex')}`;
}

/** MONGO_URL when set (a real MongoDB), else a fresh embedded server for this test file. */
export const testMongo = resolveMongoUri;

/**
 * A fresh embedded S3 server (s3rver) on a free port for this test file, as testMongo gives a MongoDB: services
 * never start one themselves. `env` is what a service reads to reach it (pass it in testEnv's `extra`); `stop()`
 * ends the server and removes its files.
 */
export async function testS3(): Promise<EmbeddedS3 & { env: Record<string, string> }> {
  const s3 = await startEmbeddedS3();
  return { ...s3, env: { S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey } };
}

/**
 * MongoDB (testMongo) and an s3rver (testS3) for a service under test that keeps data and files: pass `mongoUrl`
 * and `s3Env` to testEnv; `stop()` ends both.
 */
export async function testStores(): Promise<{ mongoUrl: string; s3Env: Record<string, string>; stop(): Promise<void> }> {
  const [mongo, s3] = await Promise.all([testMongo(), testS3()]);
  return {
    mongoUrl: mongo.uri,
    s3Env: s3.env,
    stop: async () => {
      await Promise.all([mongo.stop(), s3.stop()]);
    },
  };
}

/**
 * Environment for a service under test: isolated names, quiet logs, a random port, short retries. `mongoUrl` is
 * undefined for a service that keeps no data (document-, vat-service).
 */
export function testEnv(prefix: string, mongoUrl: string | undefined, extra: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'test',
    BUS_PREFIX: prefix,
    REDIS_PREFIX: `${prefix}:`,
    ...(mongoUrl === undefined ? {} : { MONGO_URL: mongoUrl, MONGO_DATABASE_PREFIX: `${prefix.replace(/-/g, '_')}_` }),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PORT: '0',
    BUS_RETRY_DELAYS_MS: '50,100',
    IDENTITY_SIGNING_KEYS: TEST_IDENTITY_KEY,
    ...extra,
  };
}

/** A second bus speaking our contracts, to play the other services in a test. */
export function peerBus(prefix: string, service = 'test-peer'): Bus<Messages> {
  const silent = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
  return createBus(messages, {
    url: process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
    prefix,
    service,
    logger: silent,
    retryDelaysMs: [50, 100],
  });
}

/**
 * Polls until `probe` returns a value other than undefined/false (no fixed sleeps in tests). Without `timeoutMs` it gives
 * up after 15 s, or after TEST_WAIT_TIMEOUT_MS where a project sets it (the whole-system tests, which share two cores
 * with the other projects' tests, wait longer: a late answer there is load, not a fault).
 */
export async function waitFor<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  opts: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? (Number(process.env.TEST_WAIT_TIMEOUT_MS) || 15_000));
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value as T;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 50));
  }
  throw new Error(`timed out waiting for ${opts.what ?? 'condition'}${last ? `: ${String(last)}` : ''}`);
}

/**
 * Deletes every queue and exchange whose name starts with `${prefix}.` (what services under test declared).
 * Lists them with rabbitmqctl (the broker's own CLI, present wherever the broker is) and deletes them over
 * AMQP; without rabbitmqctl it does nothing and says so.
 */
export async function deleteBrokerObjects(prefix: string): Promise<void> {
  const all = await brokerObjectNames();
  const queues = all.queues.filter((n) => n.startsWith(`${prefix}.`));
  const exchanges = all.exchanges.filter((n) => n.startsWith(`${prefix}.`));
  if (queues.length + exchanges.length === 0) return;
  const amqp = await import('amqplib');
  const conn = await amqp.connect(process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672');
  try {
    const ch = await conn.createChannel();
    for (const q of queues) await ch.deleteQueue(q);
    for (const x of exchanges) await ch.deleteExchange(x);
    await ch.close();
  } finally {
    await conn.close();
  }
}

/** Deletes every Redis key that starts with `prefix` (what services under test wrote). */
export async function deleteRedisKeys(prefix: string): Promise<void> {
  const { default: Redis } = await import('ioredis');
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/**
 * One request of a fuzz test: answers 'ok' when the service gave no 5xx and every 4xx is a problem with a
 * `message`, and otherwise what was wrong (status and body). Counts status classes in `tally`.
 */
export async function hostileRequest(url: string, init: RequestInit, tally: Record<string, number>): Promise<string> {
  const res = await fetch(url, init);
  const text = await res.text();
  const cls = `${Math.floor(res.status / 100)}xx`;
  tally[cls] = (tally[cls] ?? 0) + 1;
  if (res.status >= 500) return `${res.status} ${text}`;
  if (res.status < 400) return 'ok';
  try {
    return typeof (JSON.parse(text) as { message?: unknown }).message === 'string' ? 'ok' : `${res.status} without message: ${text}`;
  } catch {
    return `${res.status} not JSON: ${text}`;
  }
}

/**
 * A fuzz run of hostile requests: `numRuns` requests of any method, with a path from `paths` and a body from
 * `bodies` (or any JSON) sent as JSON or as text/plain, each of which must pass `hostileRequest`. `paths` and
 * `bodies` are fast-check arbitraries of the caller's (typed loosely: this library does not load fast-check
 * before a test asks for it).
 */
export async function hostileRequests(opts: {
  baseUrl: string;
  headers: Record<string, string>;
  paths: unknown;
  bodies: unknown[];
  tally: Record<string, number>;
  numRuns: number;
}): Promise<void> {
  const fc = (await import('fast-check')).default;
  await fc.assert(
    fc.asyncProperty(
      opts.paths as import('fast-check').Arbitrary<string>,
      fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'),
      fc.oneof(
        ...(opts.bodies as import('fast-check').Arbitrary<unknown>[]),
        fc.json().map((j) => JSON.parse(j) as unknown),
      ),
      fc.constantFrom('application/json', 'text/plain'),
      async (p, method, body, type) => {
        const init = {
          method,
          headers: { ...opts.headers, 'content-type': type },
          body: method === 'GET' || method === 'DELETE' ? undefined : JSON.stringify(body),
        };
        const outcome = await hostileRequest(`${opts.baseUrl}${p}`, init, opts.tally);
        if (outcome !== 'ok') throw new Error(`${method} ${p}: ${outcome}`);
      },
    ),
    { numRuns: opts.numRuns },
  );
}

/** Names of every queue and exchange on the local broker (rabbitmqctl; empty lists, with a warning, when it is not there). */
export async function brokerObjectNames(): Promise<{ queues: string[]; exchanges: string[] }> {
  const { execFile } = await import('node:child_process');
  const list = (what: 'list_queues' | 'list_exchanges') =>
    new Promise<string[]>((resolve) =>
      execFile('rabbitmqctl', [what, '-q', '--no-table-headers', 'name'], { timeout: 20_000 }, (err, stdout) => {
        if (err) {
          process.stderr.write(`rabbitmqctl ${what} failed (${err.message}); broker objects are left as they are\n`);
          return resolve([]);
        }
        resolve(
          stdout
            .split('\n')
            .map((s) => s.trim())
            .filter(Boolean),
        );
      }),
    );
  const [queues, exchanges] = await Promise.all([list('list_queues'), list('list_exchanges')]);
  return { queues, exchanges };
}
export * from './malformed-multipart';
export * from './commit-kill-switch';
