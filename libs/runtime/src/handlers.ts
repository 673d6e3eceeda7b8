import type { z } from 'zod';
import type {
  Bus,
  CommandEnvelope,
  Envelope,
  EventEnvelope,
  HandlerContext,
  MessageRegistry,
  PublishOptions,
  RpcRequestEnvelope,
} from '@inv/bus';
import type { CompanyId, Messages } from '@inv/contracts';

/**
 * Handler types derived from the message registry (libs/contracts messages/registry.ts): a handler names the
 * message type it handles and gets its payload type from the contract, never written by hand, so the wiring
 * (`bus.onEvent`, `onCommand`, `serveRpc`) needs no cast and a handler of the wrong type does not compile
 * (handlers.types.spec.ts).
 */
export type EventType = keyof Messages['events'] & string;
export type CommandType = keyof Messages['commands'] & string;
export type RpcType = keyof Messages['rpc'] & string;

/** The payload of an event, a command, an RPC request or response (as a handler receives or returns it). */
export type EventData<K extends EventType> = z.output<Messages['events'][K]>;
export type CommandData<K extends CommandType> = z.output<Messages['commands'][K]>;
export type RpcRequestData<K extends RpcType> = z.output<Messages['rpc'][K]['request']>;
export type RpcResponseData<K extends RpcType> = z.input<Messages['rpc'][K]['response']>;

/**
 * The envelope of event K. A union of types distributes, so a handler of several types narrows `msg.data`
 * with `switch (msg.type)` / `if (msg.type === ...)`: the typed multi-type subscription is
 * `bus.onEvent(queue, ['a.v1', 'b.v1'], (msg: EventOf<'a.v1' | 'b.v1'>) => ...)`.
 */
export type EventOf<K extends EventType> = EventEnvelope<Messages, K> & Scoped;
export type CommandOf<K extends CommandType> = CommandEnvelope<Messages, K> & Scoped;
export type RpcRequestOf<K extends RpcType> = RpcRequestEnvelope<Messages, K> & Scoped;
/** A received message's company is a CompanyId: the one its publisher committed it for (libs/contracts company-id.ts). */
type Scoped = { companyId: CompanyId };

/** A handler of event(s) K, as `bus.onEvent` takes it. */
export type HandlerOf<K extends EventType> = (msg: EventOf<K>, ctx: HandlerContext) => Promise<void>;
/** A handler of command K, as `bus.onCommand` takes it. */
export type CommandHandlerOf<K extends CommandType> = (msg: CommandOf<K>, ctx: HandlerContext) => Promise<void>;
/** A server of RPC K, as `bus.serveRpc` takes it. */
export type RpcHandlerOf<K extends RpcType> = (msg: RpcRequestOf<K>) => Promise<RpcResponseData<K>>;

/**
 * The services' bus: the registry's bus whose handlers receive envelopes with a CompanyId (EventOf and its kin),
 * and which publishes, sends and asks only for a CompanyId. The same object as `Bus<Messages>`; only the view of
 * `companyId` is narrower.
 */
export interface AppBus extends Omit<Bus<Messages>, 'onEvent' | 'onCommand' | 'serveRpc' | 'publishEvent' | 'sendCommand' | 'callRpc'> {
  publishEvent<K extends EventType>(
    type: K,
    companyId: CompanyId,
    data: z.input<Messages['events'][K]>,
    opts?: PublishOptions,
  ): Promise<Envelope>;
  sendCommand<K extends CommandType>(
    type: K,
    companyId: CompanyId,
    data: z.input<Messages['commands'][K]>,
    opts?: PublishOptions,
  ): Promise<Envelope>;
  callRpc<K extends RpcType>(
    type: K,
    companyId: CompanyId,
    data: z.input<Messages['rpc'][K]['request']>,
    opts?: { timeoutMs?: number },
  ): Promise<z.output<Messages['rpc'][K]['response']>>;
  /** Durable queue `${prefix}.${service}.${queue}` bound to each of `types` on the events exchange. */
  onEvent<K extends EventType>(queue: string, types: K[], handler: HandlerOf<K>): void;
  /** Durable queue `${prefix}.cmd.${type}`: competing consumers of the owning service. */
  onCommand<K extends CommandType>(type: K, handler: CommandHandlerOf<K>): void;
  serveRpc<K extends RpcType>(type: K, handler: RpcHandlerOf<K>): void;
}

/**
 * The registry's bus as the services use it. The one place a bus's envelopes are taken as carrying a CompanyId:
 * the bus delivers what a service published for a company, and services publish only for their CompanyId.
 */
export const asAppBus = (bus: Bus<Messages>): AppBus => bus as unknown as AppBus;

/**
 * The keys of a table keyed by message type (e.g. one entry per audited event type), typed as those types, for
 * `bus.onEvent(queue, typesOf(table), ...)`. The table's type guarantees every key is one of K.
 */
export const typesOf = <K extends string>(table: Partial<Record<K, unknown>>): K[] => Object.keys(table) as K[];

/**
 * The bus seen without the registry's compile-time types: for messages whose type is known only at run time
 * (outbox entries read back from MongoDB). The bus validates every message against its contract when it
 * publishes, so this view loses no check at run time; it is for the relay only, never for handlers.
 */
export const untypedBus = (bus: AppBus | Bus<Messages>): Bus<MessageRegistry> => bus as Bus<MessageRegistry>;
