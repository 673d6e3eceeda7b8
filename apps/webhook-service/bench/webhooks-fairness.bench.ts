/**
 * `npm run bench:webhooks-fairness`: does one company's receiver that never answers delay another company's
 * webhooks? webhook-service as its own process (compiled by tsx, like `npm start`), with the default limits (4 per
 * endpoint, 16 per company, 64 per replica) and the production timeout (10 s); an embedded MongoDB in its own
 * process (MONGO_URL to use a real one); the owners' GET and the receivers in this process.
 *
 * Per service root (this checkout, and BASELINE_ROOT when given: a checkout of an earlier commit with its
 * node_modules, to compare before and after in one run), two phases:
 *   alone     the victim company's endpoint (answers 204 at once) gets VICTIM_EVENTS events, one each INTERVAL_MS;
 *   attacked  the same while the attacker company's 16 endpoints (all on a receiver that accepts and never answers)
 *             get ATTACK_EVENTS (8) events at once: 128 deliveries, twice the replica's 64 slots, each holding its
 *             slot for the timeout, and retried 5 s later.
 * Reports the victim's latency (bus publish to receipt: p50, p95, p99, max) per phase, and webhook-service's CPU
 * (utime + stime from /proc) per delivery attempt made in the phase (the victim's deliveries plus the attacker's
 * attempts), after a warm-up.
 *
 * Env: VICTIM_EVENTS (100), INTERVAL_MS (150), ATTACK_EVENTS (8), TIMEOUT_MS (10000), BASELINE_ROOT.
 */
import { spawn } from 'node:child_process';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { freeServicesPortOffset, SERVICES, spawnService, stopService, waitReady } from '@inv/runtime';
import { deleteBrokerObjects, peerBus, serviceCaller, testEnv, uniquePrefix } from '@inv/testing';
import { startReceiver } from '../src/testing/receiver';

const VICTIM_EVENTS = Number(process.env.VICTIM_EVENTS ?? 100);
const INTERVAL_MS = Number(process.env.INTERVAL_MS ?? 150);
const ATTACK_EVENTS = Number(process.env.ATTACK_EVENTS ?? 8);
const TIMEOUT_MS = Number(process.env.TIMEOUT_MS ?? 10_000);
const ATTACKER_ENDPOINTS = 16;
const TICK_MS = 10; // USER_HZ = 100

const cpuMs = (pid: number) => {
  const rest = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = rest.slice(rest.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * TICK_MS;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(probe: () => boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await sleep(10);
  }
}
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const ms = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${Math.round(n)} ms`);

async function main() {
  const here = resolve(__dirname, '../../..');
  const roots = [{ label: 'this checkout', root: here }];
  if (process.env.BASELINE_ROOT)
    roots.unshift({ label: `baseline ${process.env.BASELINE_ROOT}`, root: resolve(process.env.BASELINE_ROOT) });
  const mongoProc = process.env.MONGO_URL
    ? undefined
    : spawn(process.execPath, ['--import', 'tsx', resolve(here, 'libs/embedded-mongo/src/cli.ts')], {
        cwd: here,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
  const mongoUri =
    process.env.MONGO_URL ??
    (await new Promise<string>((ok, fail) => {
      mongoProc!.stdout!.once('data', (d: Buffer) => ok(d.toString().trim().split('\n')[0]!));
      mongoProc!.once('exit', () => fail(new Error('embedded MongoDB exited')));
    }));
  // the victim's receiver answers at once and notes when each invoice's event came
  const arrived = new Map<number, number>();
  const victimReceiver = await startReceiver((r, res) => {
    const id = Number(/"invoice_id":(\d+)/.exec(r.body)?.[1] ?? 0);
    if (!arrived.has(id)) arrived.set(id, performance.now());
    res.writeHead(204).end();
  });
  // the attacker's receiver accepts every request and never answers (the sender gives up after its timeout)
  let attackerAttempts = 0;
  const silent = await startReceiver((_r, _res: ServerResponse) => void attackerAttempts++);
  const results: string[] = [];
  try {
    for (const { label, root } of roots) {
      const prefix = uniquePrefix('bench-whf');
      const portOffset = await freeServicesPortOffset();
      const owners = createServer((req, res) => {
        const id = Number(/^\/invoice\/(\d+)$/.exec(req.url ?? '')?.[1] ?? 0);
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ id, invoice_id: id, status: 'PAID', invoice_format: 'XRECHNUNG' }));
      });
      await new Promise<void>((r) => owners.listen(SERVICES.invoice.port + portOffset, '127.0.0.1', r));
      const ownersUrl = `http://127.0.0.1:${(owners.address() as AddressInfo).port}`;
      const env = {
        ...process.env,
        ...testEnv(prefix, mongoUri, {
          INVOICE_URL: ownersUrl,
          CUSTOMER_URL: ownersUrl,
          EXPORT_URL: ownersUrl,
          QUOTA_URL: ownersUrl,
          WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
          LOG_LEVEL: 'warn',
        }),
      };
      const svc = spawnService('webhook', { root, services: ['webhook'], env, portOffset, stdio: 'inherit' });
      const peer = peerBus(prefix, 'bench-peer');
      try {
        await waitReady(svc, 60_000);
        await peer.start();
        const pid = svc.child.pid!;
        const victim = `cmp_bench_victim_${prefix.slice(-6)}`;
        const attacker = `cmp_bench_attacker_${prefix.slice(-6)}`;
        const asVictim = serviceCaller(() => svc.url, victim);
        const asAttacker = serviceCaller(() => svc.url, attacker);
        await asVictim('POST', '/webhook-endpoints/', { url: victimReceiver.url('/victim'), event_types: ['invoice.status_changed'] });
        for (let i = 0; i < ATTACKER_ENDPOINTS; i++)
          await asAttacker('POST', '/webhook-endpoints/', { url: silent.url(`/never-${i}`), event_types: ['*'] });
        let nextId = 1_000_000 * (roots.findIndex((r) => r.root === root) + 1);
        const victimEvent = async () => {
          const id = ++nextId;
          const at = performance.now();
          await peer.publishEvent('invoice.status-changed.v1', victim, { invoiceId: id, customerId: 1, status: 'PAID' });
          return { id, at };
        };
        // warm-up (JIT, connections)
        const warm = await Promise.all(Array.from({ length: 20 }, victimEvent));
        await until(() => warm.every((w) => arrived.has(w.id)), 60_000, 'warm-up');

        const phase = async (name: 'alone' | 'attacked') => {
          if (name === 'attacked')
            for (let i = 1; i <= ATTACK_EVENTS; i++)
              await peer.publishEvent('invoice.status-changed.v1', attacker, { invoiceId: i, customerId: 1, status: 'PAID' });
          const cpu0 = cpuMs(pid);
          const attempts0 = attackerAttempts;
          if (name === 'attacked') await sleep(500); // the attacker's deliveries are in flight first
          const sent: { id: number; at: number }[] = [];
          for (let i = 0; i < VICTIM_EVENTS; i++) {
            const next = performance.now() + INTERVAL_MS;
            sent.push(await victimEvent());
            await sleep(Math.max(0, next - performance.now()));
          }
          await until(() => sent.every((s) => arrived.has(s.id)), 300_000, `the victim's deliveries (${name})`);
          const cpu = cpuMs(pid) - cpu0;
          const attempts = VICTIM_EVENTS + (attackerAttempts - attempts0);
          const lat = sent.map((s) => arrived.get(s.id)! - s.at).sort((a, b) => a - b);
          const line =
            `${label}, ${name.padEnd(8)}: victim latency p50 ${ms(pct(lat, 50))}, p95 ${ms(pct(lat, 95))}, p99 ${ms(pct(lat, 99))}, ` +
            `max ${ms(lat.at(-1)!)} (${VICTIM_EVENTS} events); ${attempts} delivery attempts (attacker ${attempts - VICTIM_EVENTS}), ` +
            `webhook-service CPU ${cpu} ms = ${(cpu / attempts).toFixed(2)} ms per attempt`;
          console.log(line);
          results.push(line);
        };
        await phase('alone');
        await phase('attacked');
      } finally {
        await stopService(svc);
        await peer.stop();
        owners.close();
        await deleteBrokerObjects(prefix);
      }
    }
    console.log(`\nattacker: ${ATTACKER_ENDPOINTS} endpoints on a receiver that never answers, timeout ${TIMEOUT_MS} ms`);
    for (const r of results) console.log(r);
    console.log(
      `machine: ${cpus().length} cores, load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await victimReceiver.close();
    await silent.close();
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
