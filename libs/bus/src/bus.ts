import { randomUUID } from 'node:crypto';
import { connect, type Channel } from 'amqplib';
import { ConnectionManager, type Session } from './connection';
import { currentMessageActor } from './correlation';
import { cancelConsumer, startConsumer, type ConsumerSpec } from './consumer';
import { makeEnvelope, parseData } from './envelope';
import { createNames } from './naming';
import { peekParked, replayParked } from './parking';
import { publishEnvelope } from './publisher';
import { durableQueueOptions } from './queue-types';
import { assertDelays } from './retry-policy';
import { RpcClient } from './rpc-client';
import { startRpcServer, type RpcServerSpec } from './rpc-server';
import { DeclaredNames, InflightTracker, type Runtime } from './runtime';
import type { Bus, BusOptions, Envelope, MessageRegistry } from './types';

export const DEFAULTS = {
  prefetch: 10,
  retryDelaysMs: [1000, 5000, 30000],
  rpcTimeoutMs: 5000,
  reconnectDelaysMs: [100, 500, 1000, 2000, 5000],
  publishTimeoutMs: 10000,
} as const;

function lookup<T>(table: Record<string, T>, kind: string, type: string): T {
  if (!Object.hasOwn(table, type)) throw new Error(`bus: unknown ${kind} type ${type}`);
  return table[type];
}

export function createBus<R extends MessageRegistry>(registry: R, options: BusOptions): Bus<R> {
  const names = createNames(options.prefix, options.service);
  const retryDelaysMs = [...(options.retryDelaysMs ?? DEFAULTS.retryDelaysMs)];
  const reconnectDelaysMs = [...(options.reconnectDelaysMs ?? DEFAULTS.reconnectDelaysMs)];
  assertDelays('retryDelaysMs', retryDelaysMs, true);
  assertDelays('reconnectDelaysMs', reconnectDelaysMs, false);
  const logger = options.logger;
  const consumers: ConsumerSpec[] = [];
  const rpcServers: RpcServerSpec[] = [];
  const commandQueuesReady = new WeakMap<Session, Set<string>>();
  let stopping = false;
  let started = false;
  let starting: Promise<void> | undefined;

  const cm = new ConnectionManager({
    url: options.url,
    connectionName: options.connectionName ?? `${options.prefix}.${options.service}.${randomUUID().slice(0, 8)}`,
    reconnectDelaysMs,
    logger,
    onSession: async (session) => {
      await rt.declared.exchange(session.pub, names.eventsExchange, 'topic');
      await rt.declared.exchange(session.pub, names.commandsExchange, 'direct');
      await rpc.attach(session);
      // A reconnect while stop() drains handlers serves their publishes only: consume nothing new.
      if (stopping) return;
      // Index loops: registrations made while this runs are picked up too.
      for (let i = 0; i < consumers.length; i++) await startConsumer(rt, session, consumers[i]);
      for (let i = 0; i < rpcServers.length; i++) await startRpcServer(rt, session, rpcServers[i]);
    },
    onSessionLost: () => {
      for (const c of consumers) c.live = undefined;
      for (const s of rpcServers) s.live = undefined;
    },
  });

  const rt: Runtime = {
    service: options.service,
    names,
    logger,
    prefetch: options.prefetch ?? DEFAULTS.prefetch,
    retryDelaysMs,
    rpcTimeoutMs: options.rpcTimeoutMs ?? DEFAULTS.rpcTimeoutMs,
    publishTimeoutMs: options.publishTimeoutMs ?? DEFAULTS.publishTimeoutMs,
    queueType: options.queueType ?? 'quorum',
    cm,
    declared: new DeclaredNames(),
    inflight: new InflightTracker(),
    isStopping: () => stopping,
  };
  const rpc = new RpcClient(rt);

  /** Start something registered after start() on the live session; a later reconnect starts it anyway. */
  function startLate(what: string, start: (session: Session) => Promise<void>): void {
    const session = started && !stopping ? cm.current() : undefined;
    if (!session) return;
    start(session).catch((err: unknown) => logger.error({ err, what }, 'bus: could not start a late registration'));
  }

  /** The sender declares the command queue too, so a command sent before its owner ever ran is kept, not dropped. */
  async function ensureCommandQueue(session: Session, type: string): Promise<void> {
    let ready = commandQueuesReady.get(session);
    if (!ready) commandQueuesReady.set(session, (ready = new Set()));
    if (ready.has(type)) return;
    const queue = names.commandQueue(type);
    await rt.declared.queue(session.pub, queue, durableQueueOptions(rt.queueType));
    await session.pub.bindQueue(queue, names.commandsExchange, type);
    ready.add(type);
  }

  function assertStarted(): void {
    // Handlers may publish while start() is still finishing (consumers start inside it), hence `starting`.
    if (!started && !starting) throw new Error('bus: call start() before publishing or calling');
  }

  function resolveWorkQueue(name: string): string {
    return names.resolveWorkQueue(name, Object.keys(registry.commands));
  }

  const bus: Bus<R> = {
    async start() {
      if (started) return;
      if (starting) return starting;
      stopping = false;
      starting = cm.start().then(async () => {
        started = true;
        // Registered during start(), after the setup loop had passed them: start them now (idempotent per session).
        const session = cm.current();
        if (!session) return;
        for (const c of consumers) await startConsumer(rt, session, c);
        for (const s of rpcServers) await startRpcServer(rt, session, s);
      });
      try {
        await starting;
      } finally {
        starting = undefined;
      }
    },

    async publishEvent(type, companyId, data, opts) {
      assertStarted();
      const envelope = makeEnvelope(
        type,
        companyId,
        parseData(lookup(registry.events, 'event', type), type, data),
        opts?.id,
        opts?.occurredAt,
        opts?.actor ?? currentMessageActor(),
      );
      await publishEnvelope(rt, names.eventsExchange, envelope, opts?.correlationId);
      return envelope;
    },

    async sendCommand(type, companyId, data, opts) {
      assertStarted();
      const envelope = makeEnvelope(
        type,
        companyId,
        parseData(lookup(registry.commands, 'command', type), type, data),
        opts?.id,
        opts?.occurredAt,
        opts?.actor ?? currentMessageActor(),
      );
      await publishEnvelope(rt, names.commandsExchange, envelope, opts?.correlationId, (session) => ensureCommandQueue(session, type));
      return envelope;
    },

    onEvent(queue, types, handler) {
      if (types.length === 0) throw new Error('bus: onEvent needs at least one event type');
      const workQueue = names.eventQueue(queue);
      if (consumers.some((c) => c.queue === workQueue)) throw new Error(`bus: queue ${workQueue} already has a handler`);
      const spec: ConsumerSpec = {
        queue: workQueue,
        bindings: types.map((t) => ({ exchange: names.eventsExchange, routingKey: t })),
        schemas: new Map(types.map((t) => [t, lookup(registry.events, 'event', t)])),
        handler: handler as ConsumerSpec['handler'],
      };
      consumers.push(spec);
      startLate(workQueue, (session) => startConsumer(rt, session, spec));
    },

    onCommand(type, handler) {
      const workQueue = names.commandQueue(type);
      if (consumers.some((c) => c.queue === workQueue)) throw new Error(`bus: command ${type} already has a handler`);
      const spec: ConsumerSpec = {
        queue: workQueue,
        bindings: [{ exchange: names.commandsExchange, routingKey: type }],
        schemas: new Map([[type, lookup(registry.commands, 'command', type)]]),
        handler: handler as ConsumerSpec['handler'],
      };
      consumers.push(spec);
      startLate(workQueue, (session) => startConsumer(rt, session, spec));
    },

    serveRpc(type, handler) {
      if (rpcServers.some((s) => s.type === type)) throw new Error(`bus: RPC ${type} is already served`);
      const schemas = lookup(registry.rpc, 'rpc', type);
      const spec: RpcServerSpec = {
        type,
        queue: names.rpcQueue(type),
        request: schemas.request,
        response: schemas.response,
        handler: handler as RpcServerSpec['handler'],
      };
      rpcServers.push(spec);
      startLate(spec.queue, (session) => startRpcServer(rt, session, spec));
    },

    async callRpc(type, companyId, data, opts) {
      assertStarted();
      const schemas = lookup(registry.rpc, 'rpc', type);
      const envelope = makeEnvelope(type, companyId, parseData(schemas.request, type, data));
      const timeoutMs = opts?.timeoutMs ?? rt.rpcTimeoutMs;
      const result = await rpc.call(type, envelope, timeoutMs, (reply) => parseData(schemas.response, `${type} response`, reply));
      return result as Awaited<ReturnType<Bus<R>['callRpc']>>;
    },

    isReady: () => started && !stopping && cm.isReady(),

    async stop() {
      if (starting) await starting.catch(() => undefined);
      if (!started || stopping) return;
      stopping = true;
      await Promise.all([...consumers, ...rpcServers].map((c) => cancelConsumer(c)));
      await rt.inflight.drain();
      rpc.rejectAll(new Error('bus stopped'));
      await cm.stop();
      started = false;
      logger.info({ service: options.service }, 'bus: stopped');
    },

    parkedMessages: (queue): Promise<Envelope[]> => peekParked(rt, names.parkingQueue(resolveWorkQueue(queue))),

    replayParked: (queue) => {
      const workQueue = resolveWorkQueue(queue);
      return replayParked(rt, names.parkingQueue(workQueue), workQueue);
    },

    async deleteAll() {
      // Stop consuming first: deleting a queue we consume from would otherwise look like a broker-side cancel.
      for (const spec of [...consumers, ...rpcServers]) spec.removed = true;
      await Promise.all([...consumers, ...rpcServers].map((c) => cancelConsumer(c)));
      const deleteEverything = async (ch: Channel): Promise<void> => {
        for (const q of rt.declared.queues) await ch.deleteQueue(q);
        for (const x of rt.declared.exchanges) await ch.deleteExchange(x);
        await ch.close().catch(() => undefined);
      };
      const live = cm.current();
      if (live) {
        await deleteEverything(await cm.openChannel(live, 'delete-all', false));
      } else {
        // After stop(): a short-lived connection of its own.
        const temp = await connect(options.url, { noDelay: true });
        try {
          await deleteEverything(await temp.createChannel());
        } finally {
          await temp.close().catch(() => undefined);
        }
      }
      rt.declared.queues.clear();
      rt.declared.exchanges.clear();
    },
  };
  return bus;
}
