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
const KEY_MATERIAL = /ak_(live|test)_[0-9a-fA-F]+/g;
/** A member's session secret or access token (`ms_`/`mt_` + 64 hex). */
const MEMBER_TOKEN = /\bm([st])_[0-9a-fA-F]{64}/g;
export const scrubSecrets = (line: string) =>
  line
    .replace(KEY_MATERIAL, (_m, mode: string) => `ak_${mode}_[REDACTED]`)
    .replace(MEMBER_TOKEN, (_m, kind: string) => `m${kind}_[REDACTED]`);

/**
 * Human-readable lines for a person at a terminal (`npm start`); JSON everywhere else (k8s, CI, files, pipes).
 * Synchronous, so a crash loses no line; redaction and scrubbing happen before, on the JSON line.
 */
function terminalDestination(): DestinationStream | undefined {
  if (!process.stdout.isTTY) return undefined;
  // Loaded only for a terminal: pino-pretty and its dependencies (31 modules) are ~1 MB of heap in every service.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pretty = require('pino-pretty') as typeof import('pino-pretty');
  return pretty({ colorize: true, sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
}

/**
 * pino logger that stamps every line with the service name and the active trace and span ids, and
 * redacts credentials (REDACTED_PATHS) in every line. `destination` is for tests that read the output.
 * Without one, lines go to stdout: pretty-printed when stdout is a terminal, JSON otherwise.
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
  const target = destination ?? terminalDestination();
  return target ? pino(options, target) : pino(options);
}
