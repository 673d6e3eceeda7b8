import type { Express } from 'express';
import type { Connection } from 'mongoose';
import { z } from 'zod';
import { createBus } from '@inv/bus';
import { messages } from '@inv/contracts';
import {
  createChanges,
  createOutbox,
  startOutboxRelay,
  watchOutboxBacklog,
  type Changes,
  type HeldEntry,
  type Outbox,
  type OutboxEntry,
  type OutboxRelay,
  type PendingSource,
  requestJournal,
} from '@inv/outbox';
import {
  connectMongo,
  connectRedis,
  createHttpApp,
  createIdentityVerifier,
  createLogger,
  envVars,
  finalizeApp,
  identityKeysEnv,
  listen,
  mongoReady,
  redisReady,
  releaseStartupGarbage,
  resolveIdentityKeys,
  type Listening,
  type Logger,
  type ReadinessCheck,
  type Redis,
} from '@inv/service-kit';
import { startTelemetry } from '@inv/telemetry';
import { asAppBus, untypedBus, type AppBus } from './handlers';
import { idempotentRequests } from './idempotent-requests';
import { reportStartup } from './startup-progress';
import { deleteTestCompanyData } from './test-data';

/**
 * Environment every service reads, MongoDB aside: what a service that keeps no data extends (document- and
 * vat-service; `createServiceRuntime` with `database: undefined`).
 */
export const baseEnvWithoutDatabase = z.object({
  NODE_ENV: envVars.nodeEnv,
  HOST: z.string().default('127.0.0.1'),
  AMQP_URL: envVars.amqpUrl,
  REDIS_URL: envVars.redisUrl,
  BUS_PREFIX: envVars.busPrefix,
  /** Prefix of every Redis key; tests set one per run. */
  REDIS_PREFIX: z.string().default('inv:'),
  LOG_LEVEL: envVars.logLevel,
  HEAP_GROWING_PERCENT: envVars.heapGrowingPercent,
  /** HMAC keys of the gateway's identity tokens, comma-separated: the first signs, all verify (SECURITY.md). */
  IDENTITY_SIGNING_KEYS: identityKeysEnv,
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
  /**
   * Type of the durable queues: quorum (replicated; production, tests) or classic (a broker that still holds
   * classic queues of the same names: `npm start` defaults to it; see deploy/README.md for the migration).
   */
  BUS_QUEUE_TYPE: z.enum(['quorum', 'classic']).default('quorum'),
  /** Retry delays of failed message handlers, comma-separated ms (tests shorten them). */
  BUS_RETRY_DELAYS_MS: z
    .string()
    .regex(/^\d+(,\d+)*$/)
    .default('1000,5000,30000')
    .transform((s) => s.split(',').map(Number)),
});
export type BaseEnvWithoutDatabase = z.output<typeof baseEnvWithoutDatabase>;

/** Environment every service with a database reads (each adds its own variables with `.extend`). */
export const baseEnv = baseEnvWithoutDatabase.extend({
  MONGO_URL: envVars.mongoUrl,
  /** Prepended to the database name (tests isolate runs on a shared MongoDB with it). */
  MONGO_DATABASE_PREFIX: z
    .string()
    .regex(/^[a-z0-9_-]*$/)
    .default(''),
});
export type BaseEnv = z.output<typeof baseEnv>;

interface CommonRuntimeOptions {
  service: string;
  port: number;
  useRedis?: boolean;
  bodyLimit?: string;
  /** Routes that take a non-JSON body (multipart uploads) and bound it themselves. */
  nonJsonBodyPaths?: RegExp[];
  /**
   * The object store of a service that stores files (libs/objects `ObjectStore`): on `test-data.reset-requested.v1`
   * the runtime also removes the test twin's stored files, every key under `<twin id>/` (docs/test-mode.md). A
   * service without a database then binds the reset queue for its files alone.
   */
  testFiles?: TestFileRemover;
}

/** What the reset needs of an object store: libs/objects `removePrefix`, which refuses anything but a twin's folder. */
export interface TestFileRemover {
  removePrefix(prefix: string): Promise<number>;
}

export interface RuntimeOptions extends CommonRuntimeOptions {
  /** Database name: invoicing_<service> by convention. */
  database: string;
  env: BaseEnv;
  /**
   * Whether the runtime removes a test twin's documents on `test-data.reset-requested.v1` (queue `test-data-reset`,
   * docs/test-mode.md): default true; false only for account-service, which deletes its part when it announces it.
   */
  resetsTestData?: boolean;
}

/**
 * A service that keeps no data (document-, vat-service): no MongoDB connection, outbox or relay, and readiness
 * without MongoDB. Its handlers publish straight on the bus, with deterministic envelope ids.
 */
export interface RuntimeOptionsWithoutDatabase extends CommonRuntimeOptions {
  database: undefined;
  env: BaseEnvWithoutDatabase;
}

/** What every service gets: logger, bus, Redis when asked for, the express app and its lifecycle. */
export interface ServiceRuntimeWithoutDatabase {
  logger: Logger;
  bus: AppBus;
  redis?: Redis;
  app: Express;
  /**
   * Adds a check to /readyz beside the connections': work the service must finish after it listens before it takes
   * traffic (account-service's bootstrap company, whose key the first request may carry).
   */
  addReadinessCheck(check: ReadinessCheck): void;
  /** Registers the fallbacks, starts the bus (consumers registered so far), the relay if any, and the HTTP server. */
  start(): Promise<Listening>;
  stop(): Promise<void>;
}

export interface ServiceRuntime extends ServiceRuntimeWithoutDatabase {
  conn: Connection;
  outbox: Outbox;
  relay: OutboxRelay;
  /**
   * The default way to change state and emit: a transaction whose emitted messages go through the outbox. The
   * other ways, and why each exists, are listed at libs/outbox commit.ts (`Changes`).
   */
  commit: Changes['commit'];
  /** The default way to emit without a write of this service: outbox, then the relay. */
  publish: Changes['publish'];
  /** Exception for consumers: `commit` at most once per received message (its envelope id recorded with the change). */
  commitOnce: Changes['commitOnce'];
  /** Exception: `commitOnce` for a batch, the building block of libs/outbox `groupCommit` (not for handlers directly). */
  commitAllOnce: Changes['commitAllOnce'];
  /**
   * Exception to `commit` (messages held inside their document, libs/outbox pending.ts, for the reason given there):
   * a collection whose documents keep their own pending messages: the relay reads and marks them too. Register
   * before start().
   */
  keepPendingIn(source: PendingSource): void;
  /** Messages written inside their document (`pushPending`), handed to the relay once the write succeeded. */
  handOver(entries: HeldEntry[]): void;
  /**
   * Registers a step that runs after every `commit` (and `publish`) with the messages it wrote, before the commit
   * returns to its caller: what must happen after a change and before the client is answered (announcing it to
   * other services' caches, libs/service-kit peer-data.ts). A step must not throw.
   */
  afterCommit(step: (committed: OutboxEntry[]) => Promise<void> | void): void;
}

/** The service's own MongoDB database with its outbox, inbox and relay (the relay starts with the bus). */
async function openDatabase(opts: RuntimeOptions, mongoUrl: string, logger: Logger) {
  const conn = await connectMongo(mongoUrl, `${opts.env.MONGO_DATABASE_PREFIX}${opts.database}`);
  const outbox = createOutbox(conn);
  let relay: OutboxRelay | undefined;
  const pendingSources: PendingSource[] = [];
  // the backlog counts the messages kept in documents too (keepPendingIn)
  const backlog = watchOutboxBacklog(opts.service, outbox, () => pendingSources);
  // before start() nothing publishes yet; the relay picks the entries up when it starts
  const afterCommit: Array<(committed: OutboxEntry[]) => Promise<void> | void> = [];
  const changes = createChanges(conn, outbox, (committed) => {
    relay?.kick(committed);
    if (afterCommit.length === 0) return;
    return Promise.all(afterCommit.map((step) => step(committed))).then(() => undefined);
  });
  await changes.init();
  const api = {
    conn,
    outbox,
    commit: changes.commit,
    publish: changes.publish,
    commitOnce: changes.commitOnce,
    commitAllOnce: changes.commitAllOnce,
    keepPendingIn(source: PendingSource) {
      if (relay) throw new Error('keepPendingIn: register before start()');
      pendingSources.push(source);
    },
    handOver: (entries: HeldEntry[]) => relay?.kick(entries),
    afterCommit: (step: (committed: OutboxEntry[]) => Promise<void> | void) => void afterCommit.push(step),
  };
  return {
    api,
    journal: requestJournal(conn),
    relay(): OutboxRelay {
      if (!relay) throw new Error('relay starts with start()');
      return relay;
    },
    readiness: { name: 'mongodb', check: () => mongoReady(conn) } satisfies ReadinessCheck,
    startRelay(bus: AppBus) {
      // entries are read back from MongoDB: their type is known at run time only (the untyped view; the bus validates)
      const relayBus = untypedBus(bus);
      relay = startOutboxRelay(
        outbox,
        async (entry) => {
          // Entries were validated when they were built from typed data; the bus validates again on publish.
          const publishOpts = { id: entry._id, correlationId: entry.correlationId, actor: entry.actor };
          if (entry.kind === 'event') await relayBus.publishEvent(entry.type, entry.companyId, entry.data, publishOpts);
          else await relayBus.sendCommand(entry.type, entry.companyId, entry.data, publishOpts);
        },
        logger,
        undefined,
        pendingSources,
      );
    },
    /** Before the bus stops: nothing more to relay. */
    async stopRelay() {
      backlog.unwatch();
      await relay?.stop();
    },
    close: () => conn.close(),
  };
}

/**
 * Everything a service shares: telemetry, logger, its own MongoDB database (at MONGO_URL, which the
 * launcher and the tests point at the embedded server when they run without a real one) unless it keeps no
 * data (`database: undefined`), Redis, the bus with our message contracts, the outbox relay and the express app
 * with health endpoints. Routes, consumers and RPC servers are added by the service between
 * `createServiceRuntime` and `start`.
 */
export function createServiceRuntime(opts: RuntimeOptions): Promise<ServiceRuntime>;
export function createServiceRuntime(opts: RuntimeOptionsWithoutDatabase): Promise<ServiceRuntimeWithoutDatabase>;
export async function createServiceRuntime(
  opts: RuntimeOptions | RuntimeOptionsWithoutDatabase,
): Promise<ServiceRuntime | ServiceRuntimeWithoutDatabase> {
  // Production code never starts a development stand-in: the launcher (apps/all) and the tests start the
  // embedded MongoDB and pass its address as MONGO_URL. Checked before anything starts.
  const mongoUrl = opts.database === undefined ? undefined : opts.env.MONGO_URL;
  if (opts.database !== undefined && !mongoUrl)
    throw new Error(
      'MONGO_URL is unset: set it (npm start and the tests start the embedded development MongoDB and pass its URL; npm run -s mongo:embedded starts one alone)',
    );
  startTelemetry({ serviceName: opts.service, otlpEndpoint: opts.env.OTEL_EXPORTER_OTLP_ENDPOINT });
  const logger = createLogger(opts.service, opts.env.LOG_LEVEL);
  const identity = createIdentityVerifier(resolveIdentityKeys(opts.env, logger));
  if (mongoUrl) reportStartup('connecting to MongoDB');
  const db = opts.database === undefined || !mongoUrl ? undefined : await openDatabase(opts, mongoUrl, logger);
  const redis = opts.useRedis ? connectRedis(opts.env.REDIS_URL, opts.env.REDIS_PREFIX) : undefined;
  const bus = asAppBus(
    createBus(messages, {
      url: opts.env.AMQP_URL,
      prefix: opts.env.BUS_PREFIX,
      service: opts.service,
      logger,
      retryDelaysMs: opts.env.BUS_RETRY_DELAYS_MS,
      queueType: opts.env.BUS_QUEUE_TYPE,
    }),
  );
  const readiness: ReadinessCheck[] = [...(db ? [db.readiness] : []), { name: 'rabbitmq', check: () => bus.isReady() }];
  if (redis) readiness.push({ name: 'redis', check: () => redisReady(redis) });
  const app = createHttpApp({
    service: opts.service,
    logger,
    readiness,
    bodyLimit: opts.bodyLimit,
    identity,
    nonJsonBodyPaths: opts.nonJsonBodyPaths,
  });
  // a POST sent with an Idempotency-Key: its commits and its answer are journaled, a retry answers them again
  if (db) app.use(idempotentRequests(db.journal, logger));
  let http: Listening | undefined;

  const runtime: ServiceRuntimeWithoutDatabase = {
    logger,
    bus,
    redis,
    app,
    addReadinessCheck: (check) => void readiness.push(check),
    async start() {
      finalizeApp(app, logger);
      reportStartup('connecting to RabbitMQ');
      await bus.start();
      db?.startRelay(bus);
      reportStartup('collecting start-up garbage');
      releaseStartupGarbage(logger);
      reportStartup('listening');
      http = await listen(app, opts.port, opts.env.HOST);
      logger.info({ url: http.url }, `${opts.service} listening`);
      return http;
    },
    async stop() {
      await http?.close();
      await db?.stopRelay();
      await bus.stop();
      await db?.close();
      redis?.disconnect();
    },
  };
  // DELETE /test-data (docs/test-mode.md): every service that keeps data removes the test twin's documents, once per
  // announcement (the inbox), and never a live company's (deleteTestCompanyData refuses one); a service that stores
  // files then removes the twin's folder. The files go after the commit and on every delivery: a redelivery (say,
  // after a restart between the two) finds the documents already removed and removes what files are left.
  const resetsDocuments = db && opts.database !== undefined && opts.resetsTestData !== false;
  if (resetsDocuments || opts.testFiles)
    bus.onEvent('test-data-reset', ['test-data.reset-requested.v1'], async (msg) => {
      if (resetsDocuments && db) {
        await db.api.commitOnce(msg, async (session) => {
          await deleteTestCompanyData(db.api.conn, msg.companyId, session);
        });
      }
      if (opts.testFiles) {
        const removed = await opts.testFiles.removePrefix(`${msg.companyId}/`);
        if (removed) logger.info({ companyId: msg.companyId, removed }, 'test twin files removed');
      }
    });
  if (!db) return runtime;
  return {
    ...runtime,
    ...db.api,
    get relay() {
      return db.relay();
    },
  };
}
