import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { connect, type Options } from 'amqplib';
import { z } from 'zod';
import type { BusLogger, MessageRegistry } from '../src';

export const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

/** A fresh name prefix per test file, so parallel runs never see each other's queues. */
export function testPrefix(): string {
  return `t-${randomBytes(4).toString('hex')}`;
}

export const registry = {
  events: {
    'invoice.finalized.v1': z.object({ invoiceId: z.number().int(), total: z.string() }),
    'customer.created.v1': z.object({ customerId: z.number().int() }),
  },
  commands: {
    'document.render.v1': z.object({ invoiceId: z.number().int() }),
  },
  rpc: {
    'vat.check.v1': { request: z.object({ vatId: z.string() }), response: z.object({ valid: z.boolean() }) },
    'quota.reserve.v1': {
      request: z.object({ month: z.string().regex(/^\d{4}-\d{2}$/) }),
      response: z.object({ used: z.number().int(), limit: z.number().int() }),
    },
  },
} satisfies MessageRegistry;

export interface LogEntry {
  level: string;
  msg?: string;
  obj: Record<string, unknown>;
}

/** Collects log lines (set BUS_TEST_LOG=1 to see them). */
export function memoryLogger(): BusLogger & { entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const at =
    (level: string) =>
    (obj: Record<string, unknown>, msg?: string): void => {
      entries.push({ level, msg, obj });
      if (process.env.BUS_TEST_LOG) console.log(level, msg, obj.err instanceof Error ? obj.err.message : '');
    };
  return { entries, info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug') };
}

/** Poll until `check` returns a truthy value: tests wait on outcomes, never on fixed sleeps. */
export async function waitFor<T>(check: () => T | Promise<T>, timeoutMs = 10000, what = 'condition'): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface Deferred<T = void> {
  promise: Promise<T>;
  resolve(value: T): void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Publish a raw message, bypassing the bus (to get invalid messages past publish-side validation). */
export async function rawPublish(exchange: string, routingKey: string, body: string, props: Options.Publish = {}): Promise<void> {
  const conn = await connect(AMQP_URL);
  try {
    const ch = await conn.createConfirmChannel();
    await new Promise<void>((resolve, reject) =>
      ch.publish(exchange, routingKey, Buffer.from(body), { contentType: 'application/json', ...props }, (err: unknown) =>
        err ? reject(err) : resolve(),
      ),
    );
  } finally {
    await conn.close();
  }
}

export async function queueDepth(queue: string): Promise<number> {
  const conn = await connect(AMQP_URL);
  try {
    const ch = await conn.createChannel();
    ch.on('error', () => undefined);
    return (await ch.checkQueue(queue)).messageCount;
  } finally {
    await conn.close().catch(() => undefined);
  }
}

const run = promisify(execFile);

/** Close one client connection from the broker side, found by its connection_name client property. */
export async function brokerCloseConnection(connectionName: string): Promise<void> {
  const { stdout } = await run('rabbitmqctl', ['-q', 'list_connections', '--no-table-headers', 'pid', 'client_properties']);
  const line = stdout.split('\n').find((l) => l.includes(`{"connection_name","${connectionName}"}`));
  if (!line) throw new Error(`no broker connection named ${connectionName}`);
  const pid = line.split('\t')[0];
  await run('rabbitmqctl', ['-q', 'close_connection', pid, 'closed by bus test']);
}

/** Headers of the messages in a queue, without consuming them (unacked gets are returned when the channel closes). */
export async function peekHeaders(queue: string): Promise<Array<Record<string, unknown>>> {
  const conn = await connect(AMQP_URL);
  try {
    const ch = await conn.createChannel();
    const out: Array<Record<string, unknown>> = [];
    for (;;) {
      const msg = await ch.get(queue, { noAck: false });
      if (msg === false) break;
      out.push(msg.properties.headers ?? {});
    }
    await ch.close();
    // the messages go back to the queue asynchronously (a quorum queue through its log): wait until they are counted
    const check = await conn.createChannel();
    const deadline = Date.now() + 5000;
    while ((await check.checkQueue(queue)).messageCount < out.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    return out;
  } finally {
    await conn.close().catch(() => undefined);
  }
}
