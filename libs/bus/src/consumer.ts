import type { Channel, ConsumeMessage, Options } from 'amqplib';
import type { z } from 'zod';
import { busMetrics, secondsSince } from '@inv/telemetry';
import type { Session } from './connection';
import { runWithCorrelation } from './correlation';
import { decodeEnvelope, formatIssues, parseData } from './envelope';
import { MessageValidationError, PermanentError } from './errors';
import { HEADER, readAttempt, readString, truncateForHeader, withoutBookkeeping, type AmqpHeaders } from './headers';
import { publishConfirmed } from './publisher';
import { durableQueueOptions, retryQueueOptions } from './queue-types';
import { decideOnFailure, type ParkReason } from './retry-policy';
import type { Runtime } from './runtime';
import { inReceiveSpan, messagingAttributes, SpanKind } from './tracing';
import type { Envelope, HandlerContext } from './types';

/** A registered consumer: one durable work queue with its retry queues and parking queue. */
export interface ConsumerSpec {
  queue: string;
  bindings: Array<{ exchange: string; routingKey: string }>;
  /** Contract of each type this queue accepts; anything else is parked. */
  schemas: ReadonlyMap<string, z.ZodType>;
  handler(envelope: Envelope, ctx: HandlerContext): Promise<void>;
  /** Set while consuming on a session. */
  live?: { session: Session; channel: Channel; consumerTag: string };
  /** Removed by deleteAll(): never resumed again. */
  removed?: boolean;
  /** Session a start is in progress on (a registration can be started from two places at once). */
  startingOn?: Session;
}

/** Work queue, its bindings, one TTL queue per retry delay dead-lettering back to it, and its parking queue. */
export async function declareConsumerTopology(rt: Runtime, ch: Channel, spec: ConsumerSpec): Promise<void> {
  await rt.declared.queue(ch, spec.queue, durableQueueOptions(rt.queueType));
  for (const b of spec.bindings) await ch.bindQueue(spec.queue, b.exchange, b.routingKey);
  for (const delayMs of rt.retryDelaysMs) {
    // dead-lettered through the default exchange, which routes by queue name: straight back to this work queue only
    await rt.declared.queue(ch, rt.names.retryQueue(spec.queue, delayMs), retryQueueOptions(rt.queueType, delayMs, spec.queue));
  }
  await rt.declared.queue(ch, rt.names.parkingQueue(spec.queue), durableQueueOptions(rt.queueType));
}

export async function startConsumer(rt: Runtime, session: Session, spec: ConsumerSpec): Promise<void> {
  if (spec.removed || spec.live?.session === session || spec.startingOn === session) return;
  spec.startingOn = session;
  try {
    const channel = await rt.cm.openChannel(session, `consumer ${spec.queue}`);
    await declareConsumerTopology(rt, channel, spec);
    await channel.prefetch(rt.prefetch);
    const { consumerTag } = await channel.consume(spec.queue, (msg) => onDelivery(rt, session, channel, spec, msg), { noAck: false });
    spec.live = { session, channel, consumerTag };
    rt.logger.debug({ queue: spec.queue, session: session.id }, 'bus: consuming');
  } finally {
    spec.startingOn = undefined;
  }
}

/** Stop receiving new deliveries; deliveries already received still run to the end. */
export async function cancelConsumer(spec: { live?: { session: Session; channel: Channel; consumerTag: string } }): Promise<void> {
  const live = spec.live;
  spec.live = undefined;
  if (!live || live.session.closed) return;
  await live.channel.cancel(live.consumerTag).catch(() => undefined);
}

function onDelivery(rt: Runtime, session: Session, channel: Channel, spec: ConsumerSpec, msg: ConsumeMessage | null): void {
  if (msg === null) {
    // The broker cancelled us (queue deleted, node failover). Rebuild everything unless we are going away.
    if (rt.isStopping() || spec.removed || session.closed) return;
    rt.logger.warn({ queue: spec.queue }, 'bus: consumer cancelled by the broker; reconnecting');
    channel.close().catch(() => undefined);
    return;
  }
  void rt.inflight.track(handleDelivery(rt, session, channel, spec, msg));
}

function safeAck(rt: Runtime, session: Session, channel: Channel, msg: ConsumeMessage): void {
  if (session.closed) return; // the delivery died with its channel; the broker redelivers it
  try {
    channel.ack(msg);
  } catch (err) {
    rt.logger.warn({ err, messageId: msg.properties.messageId }, 'bus: ack failed; the message will be redelivered');
  }
}

async function handleDelivery(rt: Runtime, session: Session, channel: Channel, spec: ConsumerSpec, msg: ConsumeMessage): Promise<void> {
  const headers: AmqpHeaders = msg.properties.headers ?? {};
  const attempt = readAttempt(headers);
  const correlationId = readString(headers, HEADER.correlationId);
  const routingKey = msg.fields.routingKey;
  const attrs = messagingAttributes(spec.queue, routingKey, String(msg.properties.messageId ?? ''), correlationId);
  attrs['messaging.operation.type'] = 'process';
  attrs['messaging.rabbitmq.attempt'] = attempt;
  // metric label: only types this queue's contract knows (a hostile `type` property never becomes a label)
  const declared = String(msg.properties.type ?? routingKey);
  const labels = { service: rt.service, type: spec.schemas.has(declared) ? declared : 'unknown' };
  const start = process.hrtime.bigint();
  try {
    await inReceiveSpan(`process ${String(msg.properties.type ?? routingKey)}`, SpanKind.CONSUMER, headers, attrs, async () => {
      const envelope = validateDelivery(spec, msg);
      const ctx: HandlerContext = { attempt, redelivered: msg.fields.redelivered, correlationId, headers };
      await runWithCorrelation(correlationId, () => spec.handler(envelope, ctx), envelope.actor);
    });
    busMetrics.handlerDuration.observe({ ...labels, outcome: 'ok' }, secondsSince(start));
    busMetrics.consumed.inc(labels);
    safeAck(rt, session, channel, msg);
  } catch (err) {
    busMetrics.handlerDuration.observe({ ...labels, outcome: 'error' }, secondsSince(start));
    busMetrics.failed.inc(labels);
    await onHandlerFailure(rt, session, channel, spec, msg, attempt, err, labels);
  }
}

/** A delivered message that breaks its contract (as opposed to a validation error thrown by handler code, which is retried). */
export class InvalidDeliveryError extends MessageValidationError {}

/** The delivery's envelope with `data` parsed by its contract, or InvalidDeliveryError. */
export function validateDelivery(spec: Pick<ConsumerSpec, 'schemas'>, msg: Pick<ConsumeMessage, 'content'>): Envelope {
  const decoded = decodeEnvelope(msg.content);
  if (!decoded.ok) throw new InvalidDeliveryError('(unknown)', [{ path: '', message: decoded.error }]);
  const { envelope } = decoded;
  const schema = spec.schemas.get(envelope.type);
  if (!schema) throw new InvalidDeliveryError(envelope.type, [{ path: 'type', message: `type ${envelope.type} is not consumed here` }]);
  try {
    return { ...envelope, data: parseData(schema, envelope.type, envelope.data) };
  } catch (err) {
    if (err instanceof MessageValidationError) throw new InvalidDeliveryError(err.type, err.issues);
    throw err;
  }
}

async function onHandlerFailure(
  rt: Runtime,
  session: Session,
  channel: Channel,
  spec: ConsumerSpec,
  msg: ConsumeMessage,
  attempt: number,
  err: unknown,
  labels: { service: string; type: string },
): Promise<void> {
  const message = err instanceof Error ? err.message : String(err);
  const log = { queue: spec.queue, messageId: msg.properties.messageId, type: msg.properties.type, attempt, err };
  if (session.closed) {
    rt.logger.warn(log, 'bus: handler failed after the connection was lost; the broker redelivers the message');
    return;
  }
  const decision =
    err instanceof InvalidDeliveryError
      ? ({ action: 'park', reason: 'invalid' } as const)
      : decideOnFailure(attempt, rt.retryDelaysMs, err instanceof PermanentError);
  const base = withoutBookkeeping(msg.properties.headers);
  let target: string;
  let headers: AmqpHeaders;
  if (decision.action === 'retry') {
    target = rt.names.retryQueue(spec.queue, decision.delayMs);
    headers = { ...base, [HEADER.attempt]: decision.nextAttempt, [HEADER.error]: truncateForHeader(message) };
    rt.logger.warn({ ...log, retryInMs: decision.delayMs }, 'bus: handler failed; retrying later');
    busMetrics.retried.inc(labels);
  } else {
    target = rt.names.parkingQueue(spec.queue);
    headers = parkingHeaders(base, attempt, decision.reason, message, spec.queue);
    const text =
      err instanceof InvalidDeliveryError
        ? `bus: invalid message parked: ${formatIssues(err.issues)}`
        : `bus: message parked (${decision.reason})`;
    rt.logger.error(log, text);
    busMetrics.parked.inc({ ...labels, reason: decision.reason });
  }
  try {
    await publishConfirmed(rt, '', target, msg.content, { ...copyProperties(msg), headers });
    safeAck(rt, session, channel, msg);
  } catch (pubErr) {
    rt.logger.error({ ...log, err: pubErr }, 'bus: could not move the failed message; requeueing it');
    if (!session.closed) {
      try {
        channel.nack(msg, false, true);
      } catch {
        // channel already gone: the broker redelivers
      }
    }
  }
}

export function parkingHeaders(base: AmqpHeaders, attempt: number, reason: ParkReason, error: string, queue: string): AmqpHeaders {
  return {
    ...base,
    [HEADER.attempt]: attempt,
    [HEADER.error]: truncateForHeader(error),
    [HEADER.parkReason]: reason,
    [HEADER.parkedAt]: new Date().toISOString(),
    [HEADER.originalQueue]: queue,
  };
}

export function copyProperties(msg: Pick<ConsumeMessage, 'properties'>): Options.Publish {
  const p = msg.properties;
  const out: Options.Publish = { deliveryMode: 2, contentType: p.contentType ?? 'application/json' };
  if (p.messageId !== undefined) out.messageId = p.messageId;
  if (p.type !== undefined) out.type = p.type;
  if (p.timestamp !== undefined) out.timestamp = p.timestamp;
  if (p.appId !== undefined) out.appId = p.appId;
  if (p.correlationId !== undefined) out.correlationId = p.correlationId;
  return out;
}
