import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { headerGetter, headerSetter, type AmqpHeaders } from './headers';

// A ProxyTracer: it picks up whatever provider the telemetry lib registers, even after this module loaded.
const tracer = trace.getTracer('bus');
const w3c = new W3CTraceContextPropagator();

/** The registered propagator, or W3C trace context when none is (the API's default is a no-op that would cut every trace at the bus). */
function propagator(): Pick<typeof w3c, 'inject' | 'extract'> {
  return propagation.fields().length > 0 ? propagation : w3c;
}

function fail(span: Span, err: unknown): void {
  span.recordException(err instanceof Error ? err : new Error(String(err)));
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
}

/**
 * Run `fn` in a PRODUCER (or CLIENT) span; `fn` gets the headers carrying that span's W3C trace context
 * (traceparent/tracestate), so the consumer's span becomes its child and one flow stays one trace.
 */
export function inSendSpan<T>(
  name: string,
  kind: SpanKind,
  attributes: Attributes,
  fn: (traceHeaders: AmqpHeaders) => Promise<T>,
): Promise<T> {
  return tracer.startActiveSpan(name, { kind, attributes }, async (span) => {
    const traceHeaders: AmqpHeaders = {};
    propagator().inject(context.active(), traceHeaders, headerSetter);
    try {
      return await fn(traceHeaders);
    } catch (err) {
      fail(span, err);
      throw err;
    } finally {
      span.end();
    }
  });
}

/** Run `fn` in a CONSUMER (or SERVER) span whose parent is the trace context extracted from the message headers. */
export async function inReceiveSpan<T>(
  name: string,
  kind: SpanKind,
  headers: AmqpHeaders,
  attributes: Attributes,
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = propagator().extract(ROOT_CONTEXT, headers, headerGetter);
  const span = tracer.startSpan(name, { kind, attributes }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), () => fn(span));
  } catch (err) {
    fail(span, err);
    throw err;
  } finally {
    span.end();
  }
}

export { SpanKind };

export function messagingAttributes(destination: string, routingKey: string, messageId: string, correlationId?: string): Attributes {
  const attrs: Attributes = {
    'messaging.system': 'rabbitmq',
    'messaging.destination.name': destination,
    'messaging.rabbitmq.destination.routing_key': routingKey,
    'messaging.message.id': messageId,
  };
  if (correlationId) attrs['messaging.message.conversation_id'] = correlationId;
  return attrs;
}
