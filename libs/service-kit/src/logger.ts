import pino, { type Logger } from 'pino';
import { trace } from '@opentelemetry/api';

export type { Logger };

/** pino logger that stamps every line with the service name and the active trace and span ids. */
export function createLogger(service: string, level: string = 'info'): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin() {
      const span = trace.getActiveSpan();
      if (!span) return {};
      const { traceId, spanId } = span.spanContext();
      return { trace_id: traceId, span_id: spanId };
    },
  });
}
