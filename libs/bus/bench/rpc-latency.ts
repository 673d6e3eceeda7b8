/**
 * RPC round-trip latency against the local RabbitMQ: `npx tsx libs/bus/bench/rpc-latency.ts [calls]`.
 * Prints median and p95 of sequential calls (server and client in this process, separate connections).
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { createBus, type BusLogger } from '../src';

const registry = {
  events: {},
  commands: {},
  rpc: { 'bench.echo.v1': { request: z.object({ n: z.number() }), response: z.object({ n: z.number() }) } },
};
const quiet: BusLogger = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };

async function main(): Promise<void> {
  const calls = Number(process.argv[2] ?? 500);
  const prefix = `t-bench-${randomBytes(3).toString('hex')}`;
  const url = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
  const server = createBus(registry, { url, prefix, service: 'bench-server', logger: quiet });
  const client = createBus(registry, { url, prefix, service: 'bench-client', logger: quiet });
  server.serveRpc('bench.echo.v1', async (msg) => ({ n: msg.data.n }));
  await Promise.all([server.start(), client.start()]);
  try {
    for (let i = 0; i < 50; i++) await client.callRpc('bench.echo.v1', 'c', { n: i }); // warm-up
    const samples: number[] = [];
    for (let i = 0; i < calls; i++) {
      const t0 = process.hrtime.bigint();
      await client.callRpc('bench.echo.v1', 'c', { n: i });
      samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    samples.sort((a, b) => a - b);
    const at = (q: number): string => samples[Math.min(samples.length - 1, Math.floor(samples.length * q))].toFixed(2);
    console.log(`RPC round trip, ${calls} sequential calls: median ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms`);
  } finally {
    await Promise.all([server.stop(), client.stop()]);
    await server.deleteAll();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
