import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { MongoClient } from 'mongodb';
import { startEmbeddedMongo } from '@inv/embedded-mongo';
import {
  commitKillSwitch,
  deleteBrokerObjects,
  deleteRedisKeys,
  identityHeaders,
  serviceCaller,
  testEnv,
  uniquePrefix,
  type CommitKillSwitch,
} from '@inv/testing';
import { freeServicesPortOffset, launchServices, stopServices, type RunningService, type ServiceName } from '../index';

export interface CrashRetryOptions {
  /** The service under test, started as its own process. */
  service: ServiceName;
  /** The company every request is signed for. */
  company: string;
  /**
   * Called once before the service starts, with the run's prefix and the port offset its peers' URLs are at (the
   * launcher gives the service its peers' URLs: a stand-in peer listens on its port plus this offset): start what the
   * service needs besides MongoDB, the broker and Redis and answer the environment it reads to reach it.
   */
  setup?: (prefix: string, portOffset: number) => Promise<Record<string, string>> | Record<string, string>;
  /** Called after the service has stopped: stop what `setup` started. */
  teardown?: () => Promise<void> | void;
}

/** An answer to a POST sent with an Idempotency-Key; status 0 when the service died before it answered. */
export interface IdempotentAnswer {
  status: number;
  replayed: string | null;
  // test helpers read answers loosely
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/**
 * The documented retry path, for a service's crash tests: a POST sent with an Idempotency-Key whose service dies right
 * after its commit (the gateway answers 504 and forgets its copy) and that the client sends again with the same key.
 * The service runs as its own process behind a relay to MongoDB (commitKillSwitch) that kills it with SIGKILL the
 * moment the commit of an idempotent request has gone out; `crashThenRetry` restarts it and sends again.
 *
 * Registers its own beforeAll/afterAll: call it inside a `describe` block.
 */
export function crashRetryHarness({ service, company, setup, teardown }: CrashRetryOptions) {
  const prefix = uniquePrefix(`idem${service}`);
  const root = resolve(__dirname, '../../../..');
  let portOffset = 0;
  let mongoUri = '';
  let stopMongo: (() => Promise<void>) | undefined;
  let relay: CommitKillSwitch | undefined;
  let env: NodeJS.ProcessEnv = {};
  let running: RunningService[] = [];
  let base = '';

  const launch = async () => {
    running = await launchServices({ root, services: [service], env, portOffset, stdio: 'ignore', readyTimeoutMs: 120_000 });
    base = running[0]!.url;
  };

  beforeAll(async () => {
    portOffset = await freeServicesPortOffset();
    const mongo = await startEmbeddedMongo();
    mongoUri = mongo.uri;
    stopMongo = mongo.stop;
    relay = await commitKillSwitch(mongo.uri);
    env = { ...process.env, ...testEnv(prefix, relay.uri, (await setup?.(prefix, portOffset)) ?? {}) };
    delete env.PORT;
    await launch();
  });

  afterAll(async () => {
    await stopServices(running);
    await teardown?.();
    await deleteBrokerObjects(prefix);
    await deleteRedisKeys(`${prefix}:`);
    await relay?.stop();
    await stopMongo?.();
  });

  /** A POST as the gateway forwards one with an Idempotency-Key: the key and the request's fingerprint signed. */
  const idempotentPost = async (path: string, body: unknown, key: string, contentType = 'application/json'): Promise<IdempotentAnswer> => {
    const payload = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
    const fingerprint = createHash('sha256').update(`POST /api/v1${path}\n`).update(payload).digest('hex');
    try {
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: {
          'content-type': contentType,
          ...(await identityHeaders(company, { idempotencyKey: key, idempotencyFingerprint: fingerprint })),
        },
        body: payload,
        signal: AbortSignal.timeout(60_000),
      });
      return { status: res.status, replayed: res.headers.get('idempotent-replayed'), body: await res.json() };
    } catch {
      return { status: 0, replayed: null, body: undefined }; // the service died before it answered
    }
  };

  return {
    prefix,
    /** A JSON client for the service as it runs now (its address changes with each restart). */
    call: serviceCaller(() => base, company),
    idempotentPost,
    /**
     * Sends once with the relay armed (the service dies after its commit), restarts it and sends again: answers the
     * retry. Throws when the first send was answered, that is when the service did not die after its commit.
     */
    async crashThenRetry(path: string, body: unknown, key: string, contentType?: string): Promise<IdempotentAnswer> {
      const killed = relay!.arm('idempotency_journal', running[0]!.child.pid!);
      const first = await idempotentPost(path, body, key, contentType);
      if (first.status !== 0) {
        throw new Error(`the first send answered ${first.status} ${JSON.stringify(first.body)}: the service was to die after its commit`);
      }
      await killed;
      // killed by a signal, a process has no exit code (signalCode says it): the exit may have come before this line
      const child = running[0]!.child;
      await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(undefined) : child.once('exit', r)));
      await launch();
      return idempotentPost(path, body, key, contentType);
    },
    /** The documents of a collection of the service's database, read around the relay. */
    async stored(database: string, collection: string, filter: Record<string, unknown> = {}) {
      const client = await MongoClient.connect(mongoUri);
      try {
        return await client
          .db(`${prefix.replace(/-/g, '_')}_${database}`)
          .collection(collection)
          .find(filter)
          .toArray();
      } finally {
        await client.close();
      }
    },
  };
}
