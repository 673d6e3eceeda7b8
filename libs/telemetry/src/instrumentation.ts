import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';

/**
 * Maintained OpenTelemetry instrumentations for the clients that had no spans of their own: the MongoDB
 * driver (under mongoose) and ioredis. They patch the modules when they are first required, so this runs
 * when @inv/telemetry is imported, and every service's main.ts imports @inv/telemetry first. Spans are
 * made only inside a trace (requireParentSpan: the outbox relay's polling does not start traces) and never
 * carry values: no query documents, no Redis keys or arguments (keys can name API keys or idempotency keys).
 *
 * HTTP and AMQP keep the hand-written spans (service-kit http-app.ts, libs/bus tracing.ts): the server span
 * is the one the request id, the error handler and the gateway's proxy propagation use, and the bus spans
 * carry the envelope type, the retry attempt and the outbox's resumed trace context, which the http and
 * amqplib instrumentations would duplicate without (the e2e test checks the whole trace and its attributes).
 */
let unregister: (() => void) | undefined;
export function registerLibraryInstrumentations(): void {
  if (unregister) return;
  unregister = registerInstrumentations({
    instrumentations: [
      new MongoDBInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false, dbStatementSerializer: () => '' }),
      new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
    ],
  });
}

/**
 * Takes the patches off again: a process that records no spans (no exporter) has nothing to gain from them,
 * and each MongoDB command paid for a span that was never recorded (~1.5 % of a busy service's CPU).
 */
export function disableLibraryInstrumentations(): void {
  unregister?.();
  unregister = undefined;
}

registerLibraryInstrumentations();
