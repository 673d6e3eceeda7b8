/**
 * What recording the request log costs: two gateways in this process, one recording (the default) and one not
 * (`REQUEST_LOG_MAX_ENTRIES=0`), between the same fake account-service and owning service, take the same GET in
 * alternating rounds. Prints per gateway the process CPU per request (client, gateway and fake service together: the
 * difference is the recording's) and the wall time, and the Redis server's CPU per request (INFO cpu), with the
 * log's write pipeline in it or not.
 *
 *   npx tsx apps/gateway/bench/request-log.ts        # BENCH_REQUESTS=500 per round, BENCH_ROUNDS=16, BENCH_CONCURRENCY=10
 *   BENCH_RECORDING_ENTRIES=0 npx tsx apps/gateway/bench/request-log.ts   # both not recording: the noise floor
 */
import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import Redis from 'ioredis';
import { Agent, request } from 'undici';
import { EventEmitter } from 'node:events';
import type { NextFunction, Request, Response } from 'express';
import { createLogger } from '@inv/service-kit';
import { deleteRedisKeys, TEST_IDENTITY_KEY, uniquePrefix } from '@inv/testing';
import { gatewayConfig } from '../src/config';
import { createGateway } from '../src/gateway';
import { createRequestRecorder } from '../src/request-log/recorder';
import { requestLogStore } from '../src/request-log/store';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 500);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 16);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 10);
const KEY = 'ak_live_0123456789abcdef0123456789abcdef';

async function main() {
  const app = express();
  app.use(express.json());
  app.post('/internal/auth/verify', (_req, res) => {
    res.json({ companyId: 'cmp_bench', keyId: 'key_bench', role: 'admin', plan: 'pro', mode: 'live' });
  });
  app.all('/{*rest}', (_req, res) => {
    res.json({ invoices: [], total: 0, page: 1, limit: 25 });
  });
  const upstream = await new Promise<Server>((r) => {
    const s = app.listen(0, '127.0.0.1', () => r(s));
  });
  const up = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const prefix = `${uniquePrefix('bench-reqlog')}:`;
  const start = async (entries: string) => {
    const gw = await createGateway(
      gatewayConfig.parse({
        PORT: '0',
        LOG_LEVEL: 'silent',
        IDENTITY_SIGNING_KEYS: TEST_IDENTITY_KEY,
        REDIS_PREFIX: prefix,
        RATE_LIMIT_PER_SECOND: '1000000',
        REQUEST_LOG_MAX_ENTRIES: entries,
        ...Object.fromEntries(
          ['ACCOUNT_URL', 'CUSTOMER_URL', 'INVOICE_URL', 'DOCUMENT_URL', 'EXPORT_URL', 'QUOTA_URL'].map((n) => [n, up]),
        ),
      }),
    );
    return { gw, url: `${(await gw.start()).url}/api/v1/invoice/?page=1&limit=25` };
  };
  const gateways = { recording: await start(process.env.BENCH_RECORDING_ENTRIES ?? '1000'), 'not recording': await start('0') };
  const dispatcher = new Agent({ connections: CONCURRENCY });
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const redisCpuUs = async () => {
    const info = await redis.info('cpu');
    const num = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? 0);
    return (num('used_cpu_user') + num('used_cpu_sys')) * 1e6;
  };

  const burst = async (url: string, n: number) => {
    let next = 0;
    const worker = async () => {
      while (next++ < n) {
        const res = await request(url, { headers: { 'x-api-key': KEY }, dispatcher });
        await res.body.text();
        if (res.statusCode !== 200) throw new Error(`answer ${res.statusCode}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  };
  const totals = Object.fromEntries(Object.keys(gateways).map((k) => [k, { cpuUs: 0, wallMs: 0, redisUs: 0, n: 0 }]));
  /** Per round, recording minus not recording, in µs of process CPU per request (rounds side by side: the machine's drift cancels). */
  const diffs: number[] = [];
  try {
    for (const { url } of Object.values(gateways)) await burst(url, 500); // warm-up: JIT, sockets, key cache
    for (let round = 0; round < ROUNDS; round++) {
      // ABBA: the one that goes first in a round pays for the other's garbage; each goes first as often
      const order = round % 2 === 0 ? Object.entries(gateways) : Object.entries(gateways).reverse();
      const perRequest: Record<string, number> = {};
      for (const [name, { url }] of order) {
        const redisBefore = await redisCpuUs();
        const cpu = process.cpuUsage();
        const t0 = performance.now();
        await burst(url, REQUESTS);
        const wall = performance.now() - t0;
        // the last recordings are in flight: they land (and are counted) before the round ends
        await new Promise((r) => setTimeout(r, 100));
        const used = process.cpuUsage(cpu);
        const t = totals[name]!;
        t.cpuUs += used.user + used.system;
        t.wallMs += wall;
        t.redisUs += (await redisCpuUs()) - redisBefore;
        t.n += REQUESTS;
        perRequest[name] = (used.user + used.system) / REQUESTS;
      }
      diffs.push(perRequest.recording! - perRequest['not recording']!);
    }
    console.log(`${ROUNDS} rounds x ${REQUESTS} GET /invoice/?page=1&limit=25 per gateway, ${CONCURRENCY} at a time, alternating (ABBA)`);
    for (const [name, t] of Object.entries(totals)) {
      console.log(
        `${name.padEnd(14)} process CPU ${(t.cpuUs / t.n).toFixed(0).padStart(4)} µs/request, ` +
          `${((t.n / t.wallMs) * 1000).toFixed(0)} requests/s, Redis CPU ${(t.redisUs / t.n).toFixed(1)} µs/request`,
      );
    }
    const on = totals.recording!;
    const off = totals['not recording']!;
    const sorted = [...diffs].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(0);
    console.log(
      `recording costs ${at(0.5)} µs process CPU per request (median of the rounds' differences; quartiles ${at(0.25)} .. ${at(0.75)}), ` +
        `${((on.redisUs - off.redisUs) / on.n).toFixed(1)} µs Redis CPU`,
    );
    // the server's own time in the log's commands (Redis is shared: its CPU above counts other clients too)
    const stats = await redis.info('commandstats');
    for (const cmd of ['xadd', 'expire']) {
      const m = new RegExp(`cmdstat_${cmd}:calls=(\\d+),usec=(\\d+),usec_per_call=([\\d.]+)`).exec(stats);
      if (m) console.log(`Redis ${cmd.toUpperCase()}: ${m[3]} µs per call (${m[1]} calls since the server started)`);
    }
    console.log(`log length: ${await redis.xlen(`${prefix}gw:reqlog:cmp_bench`)}`);
  } finally {
    for (const { gw } of Object.values(gateways)) await gw.stop();
    await dispatcher.close();
    upstream.closeAllConnections();
    await new Promise((r) => upstream.close(r));
    redis.disconnect();
    await deleteRedisKeys(prefix);
  }
}

/**
 * The recorder alone, as the gateway runs it (its middleware, its batches, the store's pipeline to the real Redis), fed
 * exchanges that end `perFlush` at a time: the process CPU per recorded request without the HTTP stack's noise around it.
 */
async function recorderAlone(perFlush: number, n: number, print = true) {
  const prefix = `${uniquePrefix('bench-reqlog-alone')}:`;
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { keyPrefix: `${prefix}gw:` });
  const recorder = createRequestRecorder(requestLogStore(redis, { maxEntries: 1000, ttlSeconds: 3600 }), createLogger('bench', 'silent'), {
    flushMs: 1,
  });
  const exchange = (i: number) => {
    const res = Object.assign(new EventEmitter(), {
      locals: { companyId: 'cmp_bench', mode: 'live', requestId: `req-${i}`, signedIdentity: { keyId: 'key_bench' } },
      headersSent: true,
      statusCode: 200,
    });
    const req = { originalUrl: '/api/v1/invoice/?page=1&limit=25', method: 'GET', header: () => undefined };
    recorder.middleware(req as unknown as Request, res as unknown as Response, (() => undefined) as NextFunction);
    res.emit('close');
  };
  await redis.ping();
  const cpu = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    exchange(i);
    if ((i + 1) % perFlush === 0) await new Promise((r) => setTimeout(r, 3)); // the batch is written meanwhile
  }
  await recorder.stop();
  const used = process.cpuUsage(cpu);
  const length = await redis.xlen('reqlog:cmp_bench');
  redis.disconnect();
  await deleteRedisKeys(prefix);
  // the idle waits cost some CPU of their own (timers): measured the same way without recording
  const idle = process.cpuUsage();
  for (let i = 0; i < n / perFlush; i++) await new Promise((r) => setTimeout(r, 3));
  const idleUsed = process.cpuUsage(idle);
  const us = (used.user + used.system - (idleUsed.user + idleUsed.system)) / n;
  if (print)
    console.log(
      `recorder alone, ${String(perFlush).padStart(2)} per write: ${us.toFixed(1)} µs process CPU per recorded request (${length} kept)`,
    );
}

async function all() {
  if (process.env.BENCH_SKIP_HTTP !== 'true') await main();
  const n = Number(process.env.BENCH_RECORDER_REQUESTS ?? 2000);
  await recorderAlone(5, n, false); // warm-up: JIT of the recorder, ioredis and the store
  for (const perFlush of [1, 20]) await recorderAlone(perFlush, n);
}

all().catch((err) => {
  console.error(err);
  process.exit(1);
});
