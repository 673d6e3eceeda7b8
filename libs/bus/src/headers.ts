import type { TextMapGetter, TextMapSetter } from '@opentelemetry/api';

/** AMQP header names the bus reads and writes. */
export const HEADER = {
  attempt: 'x-attempt',
  correlationId: 'x-correlation-id',
  error: 'x-error',
  parkReason: 'x-park-reason',
  parkedAt: 'x-parked-at',
  originalQueue: 'x-original-queue',
  rpcStatus: 'x-rpc-status',
} as const;

export type AmqpHeaders = Record<string, unknown>;

/** The attempt number carried by a message; absent or garbled means the first attempt. */
export function readAttempt(headers: AmqpHeaders | undefined): number {
  const raw = headers?.[HEADER.attempt];
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' ? Number(raw) : NaN;
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

export function readString(headers: AmqpHeaders | undefined, key: string): string | undefined {
  const raw = headers?.[key];
  if (typeof raw === 'string') return raw;
  if (Buffer.isBuffer(raw)) return raw.toString('utf8');
  return undefined;
}

/** Headers of a message moved to a retry or parking queue: drop our bookkeeping, keep the rest (trace, correlation). */
export function withoutBookkeeping(headers: AmqpHeaders | undefined): AmqpHeaders {
  const out: AmqpHeaders = {};
  const ours = new Set<string>([HEADER.attempt, HEADER.error, HEADER.parkReason, HEADER.parkedAt, HEADER.originalQueue]);
  for (const [k, v] of Object.entries(headers ?? {})) {
    // x-death/x-first-death-* are the broker's dead-letter history; they grow with every retry hop.
    if (ours.has(k) || k === 'x-death' || k.startsWith('x-first-death-') || k.startsWith('x-last-death-')) continue;
    out[k] = v;
  }
  return out;
}

/** Errors can be long (stack-y messages); headers are bounded by the frame size, so keep them short. */
export function truncateForHeader(text: string, max = 1000): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export const headerGetter: TextMapGetter<AmqpHeaders> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => readString(carrier, key),
};

export const headerSetter: TextMapSetter<AmqpHeaders> = {
  set: (carrier, key, value) => {
    carrier[key] = value;
  },
};
