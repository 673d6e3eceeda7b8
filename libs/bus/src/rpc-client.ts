import { randomUUID } from 'node:crypto';
import type { Channel, ConsumeMessage, Message } from 'amqplib';
import { busMetrics, secondsSince } from '@inv/telemetry';
import type { Session } from './connection';
import { currentCorrelationId } from './correlation';
import { encodeEnvelope } from './envelope';
import { RpcRemoteError, RpcTimeoutError } from './errors';
import { HEADER } from './headers';
import { decodeRpcReply } from './rpc-reply';
import type { Runtime } from './runtime';
import { inSendSpan, messagingAttributes, SpanKind } from './tracing';
import type { Envelope } from './types';

// RabbitMQ's direct reply-to pseudo queue: no reply queue to declare, replies go straight to this channel.
export const REPLY_TO = 'amq.rabbitmq.reply-to';

interface Pending {
  type: string;
  resolve(data: unknown): void;
  reject(err: Error): void;
}

/** Requests go out on the channel that consumes the replies (direct reply-to requires the same channel). */
export class RpcClient {
  private readonly pending = new Map<string, Pending>();
  private channel?: { session: Session; ch: Channel };

  constructor(private readonly rt: Runtime) {}

  async attach(session: Session): Promise<void> {
    const ch = await this.rt.cm.openChannel(session, 'rpc-client');
    await ch.consume(REPLY_TO, (msg) => this.onReply(msg), { noAck: true });
    // mandatory requests with no queue to go to come back here: fail fast instead of timing out.
    ch.on('return', (msg: Message) => this.onReturn(msg));
    this.channel = { session, ch };
  }

  call(type: string, envelope: Envelope, timeoutMs: number, parseResponse: (data: unknown) => unknown): Promise<unknown> {
    const start = process.hrtime.bigint();
    const observe = (outcome: string) => busMetrics.rpcDuration.observe({ service: this.rt.service, type, outcome }, secondsSince(start));
    return this.send(type, envelope, timeoutMs, parseResponse).then(
      (result) => {
        observe('ok');
        return result;
      },
      (err: unknown) => {
        observe(err instanceof RpcTimeoutError ? 'timeout' : err instanceof RpcRemoteError ? 'remote_error' : 'error');
        throw err;
      },
    );
  }

  private send(type: string, envelope: Envelope, timeoutMs: number, parseResponse: (data: unknown) => unknown): Promise<unknown> {
    const queue = this.rt.names.rpcQueue(type);
    const cid = currentCorrelationId() ?? envelope.id;
    return inSendSpan(`send ${type}`, SpanKind.CLIENT, messagingAttributes(queue, queue, envelope.id, cid), async (traceHeaders) => {
      const deadline = Date.now() + timeoutMs;
      const session = await this.rt.cm.waitForSession(timeoutMs).catch(() => {
        throw new RpcTimeoutError(type, timeoutMs);
      });
      const channel = this.channel;
      if (!channel || channel.session !== session) throw new RpcTimeoutError(type, timeoutMs);
      const requestId = randomUUID();
      const remaining = Math.max(1, deadline - Date.now());
      const reply = new Promise<unknown>((resolve, reject) => {
        const timer = setTimeout(() => {
          this.pending.delete(requestId);
          reject(new RpcTimeoutError(type, timeoutMs));
        }, remaining);
        this.pending.set(requestId, {
          type,
          resolve: (data) => {
            clearTimeout(timer);
            resolve(data);
          },
          reject: (err) => {
            clearTimeout(timer);
            reject(err);
          },
        });
      });
      try {
        channel.ch.publish('', queue, encodeEnvelope(envelope), {
          replyTo: REPLY_TO,
          correlationId: requestId,
          messageId: envelope.id,
          type,
          contentType: 'application/json',
          // A request nobody picked up before the caller gave up is dropped by the broker, not answered late.
          expiration: String(remaining),
          mandatory: true,
          headers: { ...traceHeaders, [HEADER.correlationId]: cid },
        });
      } catch (err) {
        this.pending.get(requestId)?.reject(err as Error);
      }
      return parseResponse(await reply);
    });
  }

  private onReply(msg: ConsumeMessage | null): void {
    if (!msg) return;
    const pending = this.pending.get(String(msg.properties.correlationId));
    if (!pending) return; // late reply after a timeout
    this.pending.delete(String(msg.properties.correlationId));
    const reply = decodeRpcReply(msg.content);
    if (reply.ok) pending.resolve(reply.data);
    else pending.reject(new RpcRemoteError(reply.error.code, reply.error.message, reply.error.details));
  }

  private onReturn(msg: Message): void {
    const id = String(msg.properties.correlationId);
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    pending.reject(new RpcRemoteError('RPC_NO_SERVER', `no RPC server queue for ${pending.type}`));
  }

  rejectAll(err: Error): void {
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.reject(err);
    }
  }
}
