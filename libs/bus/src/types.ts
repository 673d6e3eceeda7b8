import type { QueueType } from './queue-types';
import type { z } from 'zod';

/** What travels in the body of every event, command and RPC request. */
export interface Envelope<T = unknown> {
  id: string;
  type: string;
  occurredAt: string;
  companyId: string;
  data: T;
  /** Who caused the message, when a request did (optional: the audit log records it). */
  actor?: Actor;
}

/** The authenticated caller of the request that caused a message: never a secret, only ids and the address. */
export interface Actor {
  keyId?: string;
  memberId?: string;
  role?: string;
  requestId?: string;
  clientIp?: string;
}

/**
 * The contracts a bus speaks, supplied by the contracts lib (this lib knows no domain).
 * Keys are routing keys: events '<aggregate>.<past-tense-verb>.v1', commands '<service>.<verb-noun>.v1',
 * RPC '<service>.<verb>.v1'.
 */
export interface MessageRegistry {
  events: Record<string, z.ZodType>;
  commands: Record<string, z.ZodType>;
  rpc: Record<string, { request: z.ZodType; response: z.ZodType }>;
}

type LogFn = (obj: Record<string, unknown>, msg?: string) => void;
/** The subset of a pino logger the bus uses (a pino Logger is assignable to it). */
export interface BusLogger {
  info: LogFn;
  warn: LogFn;
  error: LogFn;
  debug: LogFn;
}

export interface BusOptions {
  /** e.g. amqp://guest:guest@127.0.0.1:5672 */
  url: string;
  /** Name prefix for every exchange and queue: 'inv' in production, 't-ab12cd' in tests. */
  prefix: string;
  /** e.g. 'invoice-service'; part of event queue names and of the connection name. */
  service: string;
  logger: BusLogger;
  /** Unacknowledged deliveries per consumer (and per RPC server). Default 10. */
  prefetch?: number;
  /** Delay before each retry of a failed handler; after the last one the message is parked. Default [1000, 5000, 30000]. */
  retryDelaysMs?: number[];
  /** Default timeout of callRpc. Default 5000. */
  rpcTimeoutMs?: number;
  /** Backoff between reconnect attempts; the last value repeats. Default [100, 500, 1000, 2000, 5000]. */
  reconnectDelaysMs?: number[];
  /** How long publishEvent/sendCommand wait for a connection (and retry after a lost channel) before rejecting. Default 10000. */
  publishTimeoutMs?: number;
  /** AMQP connection_name client property (shown by the broker). Default `${prefix}.${service}.<random>`. */
  connectionName?: string;
  /** Type of the durable queues (work, command, retry, parking). Default 'quorum'; see queue-types.ts. */
  queueType?: QueueType;
}

export interface HandlerContext {
  /** 1 on the first delivery, incremented on every retry through a retry queue. */
  attempt: number;
  /** The broker delivered this message before (a consumer died without acking it). */
  redelivered: boolean;
  correlationId?: string;
  headers: Record<string, unknown>;
}

export interface PublishOptions {
  /** Envelope id (default a new UUID). Give a stable id when re-publishing, e.g. from an outbox, so consumers can dedupe. */
  id?: string;
  /** Default: the correlation id of the message being handled, else the new envelope's id. */
  correlationId?: string;
  /** When the fact happened (an outbox relays later); default now. */
  occurredAt?: string;
  /** Who caused the message (see Envelope.actor). */
  actor?: Actor;
}

type EventKey<R extends MessageRegistry> = keyof R['events'] & string;
type CommandKey<R extends MessageRegistry> = keyof R['commands'] & string;
type RpcKey<R extends MessageRegistry> = keyof R['rpc'] & string;

/**
 * The envelope a handler receives. Distributed over K so that `switch (msg.type)` narrows `msg.data`
 * (assignable to the plain `Envelope<z.output<...>>`).
 */
export type EventEnvelope<R extends MessageRegistry, K extends EventKey<R>> = K extends unknown
  ? Envelope<z.output<R['events'][K]>> & { type: K }
  : never;
export type CommandEnvelope<R extends MessageRegistry, K extends CommandKey<R>> = Envelope<z.output<R['commands'][K]>> & { type: K };
export type RpcRequestEnvelope<R extends MessageRegistry, K extends RpcKey<R>> = Envelope<z.output<R['rpc'][K]['request']>> & {
  type: K;
};

export interface Bus<R extends MessageRegistry> {
  /** Connect (noDelay), declare topology, start the consumers and RPC servers registered so far. */
  start(): Promise<void>;
  publishEvent<K extends EventKey<R>>(type: K, companyId: string, data: z.input<R['events'][K]>, opts?: PublishOptions): Promise<Envelope>;
  sendCommand<K extends CommandKey<R>>(
    type: K,
    companyId: string,
    data: z.input<R['commands'][K]>,
    opts?: PublishOptions,
  ): Promise<Envelope>;
  /** Durable queue `${prefix}.${service}.${queue}` bound to each of `types` on the events exchange. */
  onEvent<K extends EventKey<R>>(
    queue: string,
    types: K[],
    handler: (msg: EventEnvelope<R, K>, ctx: HandlerContext) => Promise<void>,
  ): void;
  /** Durable queue `${prefix}.cmd.${type}`: competing consumers of the owning service. */
  onCommand<K extends CommandKey<R>>(type: K, handler: (msg: CommandEnvelope<R, K>, ctx: HandlerContext) => Promise<void>): void;
  serveRpc<K extends RpcKey<R>>(type: K, handler: (msg: RpcRequestEnvelope<R, K>) => Promise<z.input<R['rpc'][K]['response']>>): void;
  callRpc<K extends RpcKey<R>>(
    type: K,
    companyId: string,
    data: z.input<R['rpc'][K]['request']>,
    opts?: { timeoutMs?: number },
  ): Promise<z.output<R['rpc'][K]['response']>>;
  /** Connection and channels are up (for /readyz). */
  isReady(): boolean;
  /** Cancel consumers, wait for in-flight handlers, close channels and the connection. */
  stop(): Promise<void>;
  /** Peek the parking queue of a consumer queue (event queue purpose, command type, or full queue name). */
  parkedMessages(queue: string): Promise<Envelope[]>;
  /** Move the parked messages back to the work queue (attempt counter reset); returns how many moved. */
  replayParked(queue: string): Promise<number>;
  /** Delete every exchange and queue this bus declared (tests). */
  deleteAll(): Promise<void>;
}
