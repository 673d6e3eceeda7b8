/**
 * `npm run bench:webhooks`: webhook-service as its own process (compiled by tsx, like `npm start`), an embedded
 * MongoDB in its own process (MONGO_URL to use a real one), the owners' GET and the receivers in this process.
 *
 * 1. throughput: EVENTS (1,000) invoice.status-changed.v1 events of one company published on the bus, one endpoint
 *    subscribed; wall time from the first publish to the last delivery received, and webhook-service's CPU ms per
 *    delivery (utime + stime from /proc, consuming the event, preparing the snapshot, signing, sending, recording).
 * 2. fairness: a slow endpoint (answers after SLOW_MS, 3 s) of one company beside a fast one of another, FAIR_EVENTS
 *    (200) events each at once: the fast endpoint's deliveries must not wait behind the slow one's (per-endpoint limit
 *    4, global 64). Prints the fast endpoint's completion time and the slow one's highest number in flight.
 *
 * Env: EVENTS (1000), FAIR_EVENTS (200), SLOW_MS (3000), CPU_PROF=<dir> to write webhook-service's CPU profile there.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { freeServicesPortOffset, SERVICES, spawnService, stopService, waitReady } from '@inv/runtime';
import { deleteBrokerObjects, peerBus, serviceCaller, testEnv, uniquePrefix } from '@inv/testing';
import { startReceiver } from '../src/testing/receiver';

const EVENTS = Number(process.env.EVENTS ?? 1000);
const FAIR_EVENTS = Number(process.env.FAIR_EVENTS ?? 200);
const SLOW_MS = Number(process.env.SLOW_MS ?? 3000);
const TICK_MS = 10; // USER_HZ = 100

const cpuMs = (pid: number) => {
  const rest = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = rest.slice(rest.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * TICK_MS;
};

async function until(probe: () => boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function main() {
  const root = resolve(__dirname, '../../..');
  const prefix = uniquePrefix('bench-wh');
  const mongoProc = process.env.MONGO_URL
    ? undefined
    : spawn(process.execPath, ['--import', 'tsx', resolve(root, 'libs/embedded-mongo/src/cli.ts')], {
        cwd: root,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
  const mongoUri =
    process.env.MONGO_URL ??
    (await new Promise<string>((ok, fail) => {
      mongoProc!.stdout!.once('data', (d: Buffer) => ok(d.toString().trim().split('\n')[0]!));
      mongoProc!.once('exit', () => fail(new Error('embedded MongoDB exited')));
    }));
  // the owners' public GET of an invoice (what a payload carries)
  const owners = createServer((req, res) => {
    const id = Number(/^\/invoice\/(\d+)$/.exec(req.url ?? '')?.[1] ?? 0);
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ id, invoice_id: id, status: 'PAID', invoice_format: 'XRECHNUNG' }));
  });
  const portOffset = await freeServicesPortOffset();
  // the launcher points the child at the services' ports (+ offset): the owners' stand-in listens on invoice-service's
  await new Promise<void>((r) => owners.listen(SERVICES.invoice.port + portOffset, '127.0.0.1', r));
  const ownersUrl = `http://127.0.0.1:${(owners.address() as AddressInfo).port}`;
  let inFlightSlow = 0;
  let maxInFlightSlow = 0;
  const receiver = await startReceiver((r, res) => {
    if (r.path !== '/slow') return void res.writeHead(204).end();
    inFlightSlow++;
    maxInFlightSlow = Math.max(maxInFlightSlow, inFlightSlow);
    setTimeout(() => {
      inFlightSlow--;
      res.writeHead(204).end();
    }, SLOW_MS);
  });
  const env = {
    ...process.env,
    ...testEnv(prefix, mongoUri, {
      INVOICE_URL: ownersUrl,
      CUSTOMER_URL: ownersUrl,
      EXPORT_URL: ownersUrl,
      QUOTA_URL: ownersUrl,
      LOG_LEVEL: 'warn',
    }),
  };
  const nodeArgs = process.env.CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.CPU_PROF}`] : [];
  const svc = spawnService('webhook', { root, services: ['webhook'], env, portOffset, stdio: 'inherit', nodeArgs });
  const peer = peerBus(prefix, 'bench-peer');
  try {
    await waitReady(svc, 60_000);
    await peer.start();
    const pid = svc.child.pid!;

    // 1. throughput
    const company = 'cmp_bench_webhooks';
    const call = serviceCaller(() => svc.url, company);
    await call('POST', '/webhook-endpoints/', { url: receiver.url('/fast'), event_types: ['invoice.status_changed'] });
    // warm-up (JIT, connections)
    for (let i = 0; i < 20; i++)
      await peer.publishEvent('invoice.status-changed.v1', company, { invoiceId: 100_000 + i, customerId: 1, status: 'PAID' });
    await until(() => receiver.received.length >= 20, 30_000, 'warm-up');
    const before = receiver.received.length;
    const cpu0 = cpuMs(pid);
    const t0 = performance.now();
    for (let i = 0; i < EVENTS; i++)
      await peer.publishEvent('invoice.status-changed.v1', company, { invoiceId: i + 1, customerId: 1, status: 'PAID' });
    const published = performance.now() - t0;
    await until(() => receiver.received.length >= before + EVENTS, 120_000, 'throughput deliveries');
    const wall = performance.now() - t0;
    const cpu = cpuMs(pid) - cpu0;
    console.log(
      `throughput: ${EVENTS} events delivered in ${(wall / 1000).toFixed(2)} s (published in ${(published / 1000).toFixed(2)} s), ` +
        `${Math.round(EVENTS / (wall / 1000))}/s; webhook-service CPU ${cpu} ms = ${(cpu / EVENTS).toFixed(2)} ms per delivery`,
    );

    // 2. fairness: a slow endpoint beside a fast one
    const slowCo = 'cmp_bench_slow';
    const fastCo = 'cmp_bench_fast';
    await serviceCaller(() => svc.url, slowCo)('POST', '/webhook-endpoints/', { url: receiver.url('/slow'), event_types: ['*'] });
    await serviceCaller(() => svc.url, fastCo)('POST', '/webhook-endpoints/', { url: receiver.url('/fast2'), event_types: ['*'] });
    const t1 = performance.now();
    await Promise.all([
      (async () => {
        for (let i = 0; i < FAIR_EVENTS; i++)
          await peer.publishEvent('invoice.status-changed.v1', slowCo, { invoiceId: i + 1, customerId: 1, status: 'PAID' });
      })(),
      (async () => {
        for (let i = 0; i < FAIR_EVENTS; i++)
          await peer.publishEvent('invoice.status-changed.v1', fastCo, { invoiceId: i + 1, customerId: 1, status: 'PAID' });
      })(),
    ]);
    await until(
      () => receiver.received.filter((r) => r.path === '/fast2').length >= FAIR_EVENTS,
      120_000,
      'fast endpoint beside a slow one',
    );
    const fastDone = performance.now() - t1;
    const slowSoFar = receiver.received.filter((r) => r.path === '/slow').length;
    console.log(
      `fairness: the fast endpoint got its ${FAIR_EVENTS} deliveries in ${(fastDone / 1000).toFixed(2)} s while the slow one (answers after ${SLOW_MS} ms) ` +
        `had ${slowSoFar} requests, at most ${maxInFlightSlow} in flight (per-endpoint limit ${process.env.WEBHOOK_ENDPOINT_CONCURRENCY ?? 4})`,
    );
    console.log(
      `machine: ${cpus().length} cores, load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await stopService(svc);
    await peer.stop();
    await receiver.close();
    owners.close();
    await deleteBrokerObjects(prefix);
    mongoProc?.kill('SIGTERM');
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
