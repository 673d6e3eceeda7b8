import pino, { type DestinationStream, type Logger } from 'pino';
import { trace } from '@opentelemetry/api';

export type { Logger };
/** Where log lines go instead of stdout (tests read them). */
export type LogDestination = DestinationStream;

/** Header values never written to a log (secrets and credentials); bodies are never logged at all. */
const SECRET_HEADERS = ['x-api-key', 'authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-identity-token'];
const HOLDERS = ['req.headers', 'res.headers', 'headers', '*.headers', 'req.raw.headers', 'err.config.headers'];
export const REDACTED_PATHS = HOLDERS.flatMap((h) => SECRET_HEADERS.map((name) => `${h}["${name}"]`));

/**
 * Last line of defence: anything that still looks like an API key in a rendered line (a key pasted into
 * a URL, an error message quoting one) is masked before the line is written.
 */
const KEY_MATERIAL = /ak_live_[0-9a-fA-F]+/g;
export const scrubSecrets = (line: string) => line.replace(KEY_MATERIAL, 'ak_live_[REDACTED]');

/**
 * pino logger that stamps every line with the service name and the active trace and span ids, and
 * redacts credentials (REDACTED_PATHS) in every line. `destination` is for tests that read the output.
 */
export function createLogger(service: string, level: string = 'info', destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
    hooks: { streamWrite: scrubSecrets },
    mixin() {
      const span = trace.getActiveSpan();
      if (!span) return {};
      const { traceId, spanId } = span.spanContext();
      return { trace_id: traceId, span_id: spanId };
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
