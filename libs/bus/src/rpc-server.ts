import type { Channel, ConsumeMessage } from 'amqplib';
import type { z } from 'zod';
import type { Session } from './connection';
import { runWithCorrelation } from './correlation';
import { decodeEnvelope, parseData } from './envelope';
import { describeRemoteError, MessageValidationError } from './errors';
import { HEADER, readString } from './headers';
import { encodeRpcReply, type RpcReply } from './rpc-reply';
import type { Runtime } from './runtime';
import { inReceiveSpan, messagingAttributes, SpanKind } from './tracing';
import type { Envelope } from './types';

export interface RpcServerSpec {
  type: string;
  queue: string;
  request: z.ZodType;
  response: z.ZodType;
  handler(envelope: Envelope): Promise<unknown>;
  live?: { session: Session; channel: Channel; consumerTag: string };
  removed?: boolean;
  /** Session a start is in progress on (a registration can be started from two places at once). */
  startingOn?: Session;
}

/**
 * RPC request queue: durable (transient non-exclusive queues are deprecated in RabbitMQ 3.13+/4), not auto-delete
 * (servers restart; callers should not get RPC_NO_SERVER during a rolling deploy). Requests are non-persistent
 * and carry the caller's remaining timeout as per-message expiration, so nothing stale piles up.
 */
export async function startRpcServer(rt: Runtime, session: Session, spec: RpcServerSpec): Promise<void> {
  if (spec.removed || spec.live?.session === session || spec.startingOn === session) return;
  spec.startingOn = session;
  try {
    const channel = await rt.cm.openChannel(session, `rpc ${spec.type}`);
    await rt.declared.queue(channel, spec.queue, { durable: true });
    await channel.prefetch(rt.prefetch);
    const { consumerTag } = await channel.consume(
      spec.queue,
      (msg) => {
        if (msg === null) {
          if (!rt.isStopping() && !spec.removed && !session.closed) channel.close().catch(() => undefined);
          return;
        }
        void rt.inflight.track(answer(rt, session, channel, spec, msg));
      },
      { noAck: false },
    );
    spec.live = { session, channel, consumerTag };
  } finally {
    spec.startingOn = undefined;
  }
}

async function answer(rt: Runtime, session: Session, channel: Channel, spec: RpcServerSpec, msg: ConsumeMessage): Promise<void> {
  const headers = msg.properties.headers ?? {};
  const correlationId = readString(headers, HEADER.correlationId);
  const attrs = messagingAttributes(spec.queue, spec.queue, String(msg.properties.messageId ?? ''), correlationId);
  let reply: RpcReply;
  try {
    const data = await inReceiveSpan(`process ${spec.type}`, SpanKind.SERVER, headers, attrs, async () => {
      const decoded = decodeEnvelope(msg.content);
      if (!decoded.ok) throw new MessageValidationError(spec.type, [{ path: '', message: decoded.error }]);
      const envelope = { ...decoded.envelope, data: parseData(spec.request, spec.type, decoded.envelope.data) };
      const result = await runWithCorrelation(correlationId, () => spec.handler(envelope));
      // The handler's answer is checked here so a broken server is blamed, not its callers.
      return parseData(spec.response, `${spec.type} response`, result);
    });
    reply = { ok: true, data };
  } catch (err) {
    const remote = describeRemoteError(err);
    if (err instanceof MessageValidationError) remote.code = remote.code === 'INTERNAL' ? 'RPC_INVALID_MESSAGE' : remote.code;
    rt.logger.warn({ type: spec.type, code: remote.code, err }, 'bus: RPC handler failed');
    reply = { ok: false, error: remote };
  }
  if (session.closed) return;
  try {
    if (msg.properties.replyTo) {
      channel.publish('', String(msg.properties.replyTo), encodeRpcReply(reply), {
        correlationId: msg.properties.correlationId,
        contentType: 'application/json',
      });
    } else {
      rt.logger.warn({ type: spec.type }, 'bus: RPC request without replyTo; answer dropped');
    }
    channel.ack(msg);
  } catch (err) {
    rt.logger.warn({ err, type: spec.type }, 'bus: could not answer RPC request');
  }
}
