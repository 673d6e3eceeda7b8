import type { ConfirmChannel, Options } from 'amqplib';
import { busMetrics } from '@inv/telemetry';
import { currentCorrelationId } from './correlation';
import { encodeEnvelope } from './envelope';
import { PublishError } from './errors';
import { HEADER, type AmqpHeaders } from './headers';
import type { Session } from './connection';
import type { Runtime } from './runtime';
import { inSendSpan, messagingAttributes, SpanKind } from './tracing';
import type { Envelope } from './types';

/** AMQP properties of a bus message: persistent JSON, messageId = envelope id, type = envelope type. */
export function messageProperties(envelope: Envelope, appId: string, headers: AmqpHeaders): Options.Publish {
  return {
    deliveryMode: 2,
    contentType: 'application/json',
    messageId: envelope.id,
    type: envelope.type,
    timestamp: Math.floor(Date.parse(envelope.occurredAt) / 1000),
    appId,
    headers,
  };
}

class ConfirmTimeout extends Error {}

function publishOnce(
  ch: ConfirmChannel,
  exchange: string,
  routingKey: string,
  content: Buffer,
  props: Options.Publish,
  timeoutMs: number,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    // A blocked connection (broker memory/disk alarm) never confirms: do not wait past the deadline.
    const timer = setTimeout(() => reject(new ConfirmTimeout(`no publisher confirm within ${timeoutMs} ms`)), timeoutMs);
    try {
      ch.publish(exchange, routingKey, content, props, (err: unknown) => {
        clearTimeout(timer);
        if (err) reject(err);
        else resolve();
      });
    } catch (err) {
      clearTimeout(timer);
      reject(err); // the channel closed under us (IllegalOperationError)
    }
  });
}

/**
 * Publish and wait for the broker's confirm. While the connection is down, wait for it (up to
 * publishTimeoutMs); a publish whose channel died before its confirm is sent again on the next connection
 * (consumers dedupe, so a rare duplicate is the price of not losing it). A nack rejects at once.
 */
export async function publishConfirmed(
  rt: Runtime,
  exchange: string,
  routingKey: string,
  content: Buffer,
  props: Options.Publish,
  prepare?: (session: Session) => Promise<void>,
): Promise<void> {
  const deadline = Date.now() + rt.publishTimeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    let session: Session;
    try {
      session = await rt.cm.waitForSession(Math.max(1, deadline - Date.now()));
    } catch (err) {
      lastError = err;
      break;
    }
    try {
      if (prepare) await prepare(session);
      await publishOnce(session.pub, exchange, routingKey, content, props, Math.max(1, deadline - Date.now()));
      return;
    } catch (err) {
      if (err instanceof ConfirmTimeout) {
        lastError = err;
        break;
      }
      if (err instanceof Error && err.message === 'message nacked') {
        throw new PublishError(`broker nacked ${String(props.type)} ${String(props.messageId)}`);
      }
      lastError = err;
      if (!session.closed) {
        // The channel is gone but the session has not noticed yet: give the reconnect a moment.
        await new Promise((r) => setTimeout(r, 20));
      }
    }
  }
  throw new PublishError(
    `could not publish ${String(props.type)} ${String(props.messageId)}: ${lastError instanceof Error ? lastError.message : String(lastError)}`,
  );
}

/** Publish an envelope in a PRODUCER span with trace context and correlation id in its headers. */
export function publishEnvelope(
  rt: Runtime,
  exchange: string,
  envelope: Envelope,
  correlationId: string | undefined,
  prepare?: (session: Session) => Promise<void>,
): Promise<void> {
  const cid = correlationId ?? currentCorrelationId() ?? envelope.id;
  const labels = { service: rt.service, type: envelope.type };
  const attrs = {
    ...messagingAttributes(exchange, envelope.type, envelope.id, cid),
    'messaging.operation.type': 'send',
    'messaging.operation.name': 'publish',
  };
  return inSendSpan(`publish ${envelope.type}`, SpanKind.PRODUCER, attrs, (traceHeaders) =>
    publishConfirmed(
      rt,
      exchange,
      envelope.type,
      encodeEnvelope(envelope),
      messageProperties(envelope, rt.service, { ...traceHeaders, [HEADER.correlationId]: cid }),
      prepare,
    ).then(
      () => void busMetrics.published.inc(labels),
      (err: unknown) => {
        busMetrics.publishFailed.inc(labels);
        throw err;
      },
    ),
  );
}
