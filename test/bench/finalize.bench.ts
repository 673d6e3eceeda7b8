/**
 * `npm run bench:finalize`: the finalize pipeline under load, as a client drives it through the gateway
 * (create invoice, 3 positions (POSITIONS=n: n), POST job, wait for the job), with 1 and with 10 concurrent clients.
 *
 * Starts the whole system as separate processes on free ports with its own bus/Redis/database prefixes
 * (the embedded MongoDB and the development S3 server each in a process of its own), on the demo company made unlimited by configuration
 * (QUOTA_UNLIMITED_COMPANIES), warms up, then runs ROUNDS rounds per client count. Prints throughput,
 * p50/p90/p99 of the job (POST job -> finished) and of the setup calls, CPU ms per invoice per process
 * (utime+stime from /proc, child processes included) and of the load generator (this process), our services' CPU per invoice by kind of thread
 * (event loops, V8's compiler and GC helper threads, render workers), write system calls per invoice per process, each service's
 * GC pauses and V8 heap (its /metrics), and RSS; and the CPU per invoice in units of a calibration workload timed
 * before and after each round (see calibrationMs: this VM's speed drifts). Point it at a running system with BASE and KEY (then CPU is
 * reported for the processes it can find by PIDS=name:pid,...).
 *
 * RabbitMQ is the machine's shared broker: other runs' traffic lands in its CPU, hence the total also without it
 * (and without the embedded MongoDB and S3 server, development stand-ins that production does not run).
 *
 * Env: WARMUP (default 30 invoices), PER_ROUND (default 60 invoices), ROUNDS (3), CLIENTS (1,10), POSITIONS (3 per
 * invoice, each added by its own request), CUSTOMERS (1: every invoice is for the same customer; n: made before the
 * measurements, the invoices take them in turn, so with n at least the run's invoices each one's customer is new to
 * invoice-service's copies of billing data),
 * LOADGEN=http|fetch (the load generator's HTTP client, see `client`), POLL=wait|10ms (long polling with ?wait=25, default; or plain polling every 10 ms), PROFILE=dir (each
 * service writes a V8 CPU profile there when it stops: open it in Chrome DevTools or speedscope; after stopping the
 * system the harness prints, for the cold starts and each round, every process's largest packages and functions by
 * self time within that phase alone, PROFILE_TOP=n of each, default 6; see cpu-profiles.ts).
 * COMPILED=1 runs the compiled services as the image does (`npm run build:services` first; every service gets the
 * image's node flags, SERVICE_NODE_FLAGS of libs/runtime, from the launcher where this Node knows them). NODE_FLAGS='--flag ...'
 * starts every service with those node/V8 flags (to try one before it goes into the image's command). S3_TMPFS=0
 * keeps the development S3 server's files on the disk's temporary folder instead of /dev/shm. LOG_LEVEL (default warn) is
 * the services' (info: the summary line of every request, as the deployment logs it; written to /dev/null here). After the fresh system's
 * first invoices, the services alone are restarted and their first invoices measured again (RESTART=0: not).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import { loadavg, cpus } from 'node:os';
import { resolve } from 'node:path';
import { freeServicesPortOffset, launchServices, stopProcess, stopServices, type LaunchOptions, type RunningService } from '@inv/runtime';
import { brokerObjectNames, deleteBrokerObjects, deleteRedisKeys, testEnv, uniquePrefix } from '@inv/testing';
import { startViesSimulator } from '@inv/vies-simulator';
import { profileReport, type ProfileWindow } from './cpu-profiles';
import { pct, procStat, treeCpuMs } from './proc';
import { targetReport, type TargetInput } from './targets';

const env = (name: string, fallback: string) => process.env[name] ?? fallback;
/** Now, in µs of the monotonic clock that V8 stamps a CPU profile's samples with. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);
const WARMUP = Number(env('WARMUP', '30'));
const PER_ROUND = Number(env('PER_ROUND', '60'));
const ROUNDS = Number(env('ROUNDS', '3'));
const CLIENTS = env('CLIENTS', '1,10').split(',').map(Number);
const POLL = env('POLL', 'wait');
const POSITIONS = Number(env('POSITIONS', '3'));
const CUSTOMERS = Math.max(1, Number(env('CUSTOMERS', '1')));
if (!Number.isInteger(POSITIONS) || POSITIONS < 1 || POSITIONS > 1000)
  throw new Error("POSITIONS: a whole number from 1 to 1000 (an invoice's limit)");
/** The positions added to each invoice, one request each (repeated in this order when POSITIONS > 3). */
const LINES = [
  ['Beratung', 7.5, 95],
  ['Reisekosten', 1, 86.35],
  ['Lizenz', 3, 19.99],
] as const;
const root = resolve(__dirname, '../..');

// ---------------------------------------------------------------------------------------------- /proc
/** CPU ms of this process alone (the load generator; its children, the services, are not in it). */
const loadGeneratorCpuMs = () => procStat(process.pid)?.cpuMs ?? 0;
function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}
/**
 * Write system calls a process made (write, writev, pwrite: /proc/<pid>/io syscw, all its threads). Each socket
 * write is one; unlike CPU time this count does not depend on what else the machine is doing.
 */
function writeCalls(pid: number): number {
  try {
    const m = /syscw:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/io`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}
/** `measure` of every process now, to be compared after some invoices with `perInvoice`. */
const sample = (procs: Record<string, number>, measure: (pid: number) => number) =>
  Object.fromEntries(Object.entries(procs).map(([n, p]) => [n, measure(p)]));
/** What each process's `measure` grew by since `before`, per invoice. */
const perInvoice = (procs: Record<string, number>, measure: (pid: number) => number, before: Record<string, number>, invoices: number) =>
  Object.entries(procs).map(([n, p]) => [n, (measure(p) - before[n]) / Math.max(1, invoices)] as const);
/**
 * CPU ms of one process's threads by kind, from the names Node 24 gives them (/proc/<pid>/task/<tid>/comm):
 * `MainThread` (the event loop), `V8Worker` (V8's helper threads: the optimizing compilers Maglev and TurboFan, and
 * the parallel and concurrent parts of garbage collection), `WorkerThread` (worker_threads: document-service's render
 * workers); `other` is the rest (libuv's pool, the inspector's and the platform's delayed-task threads). The main
 * thread is also found by its id (the process's), so on a Node that does not name its threads (20) it is still told
 * apart and everything else counts as `other`. A thread that ended within the interval is missing from the later
 * sample, so that interval may undercount its kind.
 */
const THREAD_KINDS = ['main', 'v8', 'workers', 'other'] as const;
type ThreadKind = (typeof THREAD_KINDS)[number];
const noThreads = () => Object.fromEntries(THREAD_KINDS.map((k) => [k, 0])) as Record<ThreadKind, number>;
const threadKindOf = (comm: string, isMain: boolean): ThreadKind =>
  isMain || comm === 'MainThread' ? 'main' : comm === 'V8Worker' ? 'v8' : comm === 'WorkerThread' ? 'workers' : 'other';
function threadCpuMs(pid: number): Record<ThreadKind, number> {
  const byKind = noThreads();
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return byKind; // gone
  }
  for (const tid of tids) {
    try {
      const comm = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      byKind[threadKindOf(comm, tid === String(pid))] += procStat(pid, tid)?.cpuMs ?? 0;
    } catch {
      // the thread ended
    }
  }
  return byKind;
}
/** Not our services: the broker and the development stand-ins (their threads are not Node's). */
const NOT_OURS = new Set(['embedded-mongo', 'embedded-s3', 'rabbitmq']);
/** Our services' threads by kind now, to be compared after some invoices with `threadLine`. */
const threadSample = (procs: Record<string, number>) => {
  const total = noThreads();
  for (const [name, pid] of Object.entries(procs)) {
    if (NOT_OURS.has(name)) continue;
    const t = threadCpuMs(pid);
    for (const k of THREAD_KINDS) total[k] += t[k];
  }
  return total;
};
const threadLine = (before: Record<ThreadKind, number>, after: Record<ThreadKind, number>, invoices: number) => {
  const per = (k: ThreadKind) => ((after[k] - before[k]) / Math.max(1, invoices)).toFixed(1);
  return `main threads ${per('main')}, V8 helper threads (optimizing compilers, GC) ${per('v8')}, worker threads (render) ${per('workers')}, other ${per('other')}`;
};
function findPid(pattern: RegExp): number | undefined {
  for (const d of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      if (pattern.test(readFileSync(`/proc/${d}/cmdline`, 'utf8'))) return Number(d);
    } catch {
      // gone
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------- client
/**
 * The load generator: node:http with a keep-alive agent (LOADGEN=http, default), or fetch (LOADGEN=fetch, undici,
 * what this harness used until 2026-11-26). It runs in this process on the same two cores as the system, so what it
 * spends is taken from the system's throughput: fetch cost 6.0-7.8 ms of CPU per invoice here, node:http 2.9-3.8 ms (the
 * output prints it per round as "load generator").
 */
function client(base: string, key: string) {
  const headers = { 'x-api-key': key, 'content-type': 'application/json', accept: 'application/json' };
  if (env('LOADGEN', 'http') === 'fetch')
    return async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const json = (await res.json()) as Record<string, unknown>;
      if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
  const url = new URL(base);
  const transport = url.protocol === 'https:' ? https : http; // BASE may be a running system behind TLS
  const agent = new transport.Agent({ keepAlive: true, maxSockets: 64 });
  return (method: string, path: string, body?: unknown) =>
    new Promise<Record<string, unknown>>((ok, fail) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = transport.request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          method,
          path: `${url.pathname}${path}`,
          headers: payload === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(payload) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', fail);
          res.on('end', () => {
            try {
              const json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
              if ((res.statusCode ?? 500) >= 400) fail(new Error(`${method} ${path}: ${res.statusCode} ${JSON.stringify(json)}`));
              else ok(json);
            } catch (err) {
              fail(err as Error);
            }
          });
        },
      );
      req.on('error', fail);
      req.end(payload);
    });
}

async function oneInvoice(api: ReturnType<typeof client>, customerId: number, setup: number[], jobs: number[]) {
  let t = performance.now();
  const inv = await api('POST', '/invoice/', { customer_id: customerId, invoice_format: 'ZUGFERD' });
  setup.push(performance.now() - t);
  const id = inv.invoice_id as number;
  for (let i = 0; i < POSITIONS; i++) {
    const [title, q, p] = LINES[i % LINES.length];
    t = performance.now();
    await api('POST', `/invoice/${id}/positions`, { title, quantity: q, unit_id: 'C62', unit_net_amount: p, tax_rate: 0.19 });
    setup.push(performance.now() - t);
  }
  const started = performance.now();
  const job = await api('POST', `/invoice/${id}/job`, { task: 'process_invoice_flag_invoice_send_job' });
  for (;;) {
    const j = await api('GET', `/invoice/${id}/job/${job.job_id as string}${POLL === 'wait' ? '?wait=25' : ''}`);
    if (j.status === 'finished') break;
    if (j.status === 'failed') throw new Error(`job failed: ${String(j.error_message)}`);
    if (POLL !== 'wait') await new Promise((r) => setTimeout(r, 10));
  }
  jobs.push(performance.now() - started);
}

/** Each service's /metrics text (prom-client), fetched once per reading; a service that does not answer is left out. */
async function scrapeMetrics(services: RunningService[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const svc of services) {
    try {
      out.set(svc.name, await (await fetch(`${svc.url}/metrics`)).text());
    } catch {
      // not reachable: left out
    }
  }
  return out;
}

/**
 * Sum and count of each finalize phase (queue_wait, render, completion, total) from the services' own
 * histograms (invoice-service and document-service): the difference between two readings gives the mean of
 * each phase over a round.
 */
function phaseTotals(metrics: Map<string, string>): Record<string, { sum: number; count: number }> {
  const totals: Record<string, { sum: number; count: number }> = {};
  for (const name of ['invoice', 'document']) {
    for (const m of (metrics.get(name) ?? '').matchAll(/^invoice_finalize_phase_duration_seconds_(sum|count)\{([^}]*)\} ([0-9.e+-]+)$/gm)) {
      const phase = /phase="([^"]+)"/.exec(m[2])?.[1];
      if (!phase || !/outcome="finished"/.test(m[2])) continue;
      const t = (totals[phase] ??= { sum: 0, count: 0 });
      if (m[1] === 'sum') t.sum += Number(m[3]);
      else t.count += Number(m[3]);
    }
  }
  return totals;
}

/** Seconds each service's main thread has spent in GC pauses so far (nodejs_gc_duration_seconds, all kinds). */
function gcSeconds(metrics: Map<string, string>): Record<string, number> {
  return Object.fromEntries(
    [...metrics].map(([name, text]) => [
      name,
      [...text.matchAll(/^nodejs_gc_duration_seconds_sum\{[^}]*\} (\S+)$/gm)].reduce((a, m) => a + Number(m[1]), 0),
    ]),
  );
}

/**
 * Bus traffic so far, summed over the services by message type: events and commands published with a confirm,
 * deliveries handled, and RPC round trips (bus_rpc_client_duration_seconds_count). Two readings give the messages
 * per invoice of a round: every one of them costs the broker and both ends. Also invoice-service's lookups of its
 * copies of seller profiles and billing data by outcome (a miss or bypass is an RPC).
 */
function busCounts(metrics: Map<string, string>): Record<string, number> {
  const out: Record<string, number> = {};
  const metric = {
    bus_messages_published_total: 'published',
    bus_messages_consumed_total: 'consumed',
    bus_rpc_client_duration_seconds_count: 'rpc',
  } as const;
  const line = new RegExp(`^(${Object.keys(metric).join('|')})\\{([^}]*)\\} (\\S+)$`, 'gm');
  for (const text of metrics.values()) {
    for (const m of text.matchAll(line)) {
      const type = /type="([^"]+)"/.exec(m[2])?.[1] ?? '?';
      const key = `${metric[m[1] as keyof typeof metric]} ${type}`;
      out[key] = (out[key] ?? 0) + Number(m[3]);
    }
    // invoice-service's copies of seller profiles and billing data (libs/service-kit peer-data.ts)
    for (const m of text.matchAll(/^peer_data_lookups_total\{([^}]*)\} (\S+)$/gm)) {
      const key = `lookups ${/kind="([^"]+)"/.exec(m[1])?.[1] ?? '?'} ${/outcome="([^"]+)"/.exec(m[1])?.[1] ?? '?'}`;
      out[key] = (out[key] ?? 0) + Number(m[2]);
    }
  }
  return out;
}

function busLine(before: Record<string, number>, after: Record<string, number>, invoices: number): string {
  const parts: string[] = [];
  for (const kind of ['published', 'consumed', 'rpc', 'lookups']) {
    const rows = Object.entries(after)
      .filter(([k]) => k.startsWith(`${kind} `))
      .map(([k, v]) => [k.slice(kind.length + 1), (v - (before[k] ?? 0)) / Math.max(1, invoices)] as const)
      .filter(([, n]) => n >= 0.005)
      .sort((a, b) => b[1] - a[1]);
    const sum = rows.reduce((a, [, n]) => a + n, 0);
    parts.push(`${kind} ${sum.toFixed(2)} (${rows.map(([t, n]) => `${t} ${n.toFixed(2)}`).join(', ')})`);
  }
  return parts.join('; ');
}

/** V8 heap used / total MB per service: tells heap growth from other memory. */
function heapLine(metrics: Map<string, string>): string {
  const parts: string[] = [];
  for (const [name, text] of metrics) {
    const used = /^nodejs_heap_size_used_bytes (\S+)$/m.exec(text)?.[1];
    const total = /^nodejs_heap_size_total_bytes (\S+)$/m.exec(text)?.[1];
    if (used && total) parts.push(`${name} ${(Number(used) / 2 ** 20).toFixed(0)}/${(Number(total) / 2 ** 20).toFixed(0)}`);
  }
  return parts.join(', ');
}

function phaseLine(before: Record<string, { sum: number; count: number }>, after: Record<string, { sum: number; count: number }>): string {
  return ['queue_wait', 'render', 'completion', 'total']
    .map((phase) => {
      const a = after[phase] ?? { sum: 0, count: 0 };
      const b = before[phase] ?? { sum: 0, count: 0 };
      const n = a.count - b.count;
      return `${phase} ${n > 0 ? (((a.sum - b.sum) / n) * 1000).toFixed(0) : '–'}`;
    })
    .join(', ');
}

/** Invoices so far, over every phase: the next invoice takes the next customer (CUSTOMERS). */
let invoicesStarted = 0;

async function run(api: ReturnType<typeof client>, customerIds: number[], clients: number, invoices: number) {
  const setup: number[] = [];
  const jobs: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < invoices) {
        next++;
        await oneInvoice(api, customerIds[invoicesStarted++ % customerIds.length]!, setup, jobs);
      }
    }),
  );
  return { seconds: (performance.now() - t0) / 1000, setup, jobs };
}

/**
 * A run that is killed deletes none of its queues, exchanges and Redis keys. Hundreds of idle quorum queues left
 * that way once stopped the local RabbitMQ from answering at all, so each run first deletes those of earlier runs
 * whose process is gone (`bench-<pid>-<hex>.*`; a run still going, or a reused process id, is left alone). A killed
 * run's Redis keys are found only while its queues are still there.
 */
async function deleteOrphanedBrokerObjects(): Promise<void> {
  const { queues, exchanges } = await brokerObjectNames();
  const orphans = new Set<string>();
  for (const name of [...queues, ...exchanges]) {
    const m = /^(bench-(\d+)-[0-9a-f]+)\./.exec(name);
    if (m && !existsSync(`/proc/${m[2]}`)) orphans.add(m[1]!);
  }
  for (const orphan of orphans) {
    await deleteBrokerObjects(orphan);
    await deleteRedisKeys(`${orphan}:`);
  }
  if (orphans.size)
    console.log(`deleted the broker objects of ${orphans.size} earlier run(s) that were killed: ${[...orphans].join(', ')}`);
}

/** Until the API answers an authenticated request (the services are ready and the key is known); throws after 30 s. */
async function waitForApi(api: ReturnType<typeof client>): Promise<void> {
  let last: unknown;
  for (let i = 0; i < 60; i++) {
    try {
      await api('GET', '/invoice/?limit=1');
      return;
    } catch (err) {
      last = err;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  throw new Error(`the API did not answer within 30 s: ${last instanceof Error ? last.message : String(last)}`);
}

// ---------------------------------------------------------------------------------------------- main
/**
 * The machine's speed right now: the CPU time of a fixed piece of JavaScript work (JSON, SHA-256, a regular expression,
 * a Map; the kinds of work the services do), in this process while the system is idle between rounds, the median of 3.
 * This VM's speed drifts by 10-30 % within minutes (other tenants), so each round prints its CPU per invoice also in
 * these units (CPU ms per invoice / calibration ms): runs minutes apart, or on two VMs, compare better that way.
 */
let calibrated = false;
function calibrationMs(): number {
  const invoice = {
    id: 1234,
    number: 'RE-2026-001234',
    buyer: { name: 'Bench GmbH', address: 'Hauptstraße 5', city: 'München', vatId: 'DE123456789' },
    positions: LINES.map(([title, quantity, price], i) => ({ id: i + 1, title, quantity: String(quantity), unitPrice: String(price) })),
  };
  const bytes = Buffer.alloc(2048, 7);
  const once = () => {
    const c0 = process.cpuUsage();
    const seen = new Map<string, number>();
    let n = 0;
    for (let i = 0; i < 4000; i++) {
      const text = JSON.stringify({ ...invoice, id: i });
      n += (JSON.parse(text) as { positions: unknown[] }).positions.length;
      n += createHash('sha256').update(bytes).update(text).digest()[0]!;
      n += text.replace(/[aeiou]/g, '_').length;
      seen.set(`k${i % 500}`, i);
    }
    const c = process.cpuUsage(c0);
    if (n === 0 || seen.size !== 500) throw new Error('calibration: unexpected result');
    return (c.user + c.system) / 1000;
  };
  for (let i = 0; i < (calibrated ? 1 : 12); i++) once(); // optimized by V8 before the first reading
  calibrated = true;
  const runs = [once(), once(), once()].sort((a, b) => a - b);
  return runs[1]!;
}

async function main() {
  let base = process.env.BASE;
  let key = process.env.KEY ?? '';
  const procs: Record<string, number> = {};
  let running: RunningService[] = [];
  let mongo: ChildProcess | undefined;
  let s3: ChildProcess | undefined;
  let stopVies = async () => undefined as void;
  /** Stops the services and starts them again (ports, database, broker objects and stand-ins stay): set when this harness started them. */
  let restartServices: (() => Promise<void>) | undefined;
  /** With PROFILE: each measured phase, and the name of every process that wrote a profile (restarted services too). */
  const profileWindows: ProfileWindow[] = [];
  const profiled = new Map<number, string>();
  // the harness's process id is in its prefix, so that a later run can tell the objects of a killed one
  const prefix = uniquePrefix(`bench-${process.pid}`);
  if (!process.env.BASE) await deleteOrphanedBrokerObjects();
  if (!base) {
    key = `ak_live_${randomBytes(16).toString('hex')}`;
    const mongoProfile = process.env.PROFILE ? ['--cpu-prof', '--cpu-prof-dir', resolve(process.env.PROFILE)] : [];
    mongo = spawn(process.execPath, [...mongoProfile, '--import', 'tsx', resolve(root, 'libs/embedded-mongo/src/cli.ts')], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const uri = await new Promise<string>((ok, fail) => {
      mongo!.stdout!.once('data', (d: Buffer) => ok(d.toString().trim().split('\n')[0]));
      mongo!.once('exit', () => fail(new Error('embedded MongoDB exited')));
    });
    // the development S3 server in a process of its own too: its work (s3rver writes every document to disk) is
    // not the services', and production has a real object store (without it each service would start its own)
    // Its files go to a RAM file system where there is one: creating two files per invoice on this machine's
    // ext4 (journal, discard) cost the stand-in more CPU than serving the requests, and production's object
    // store is not on this machine at all. The services' own work is the same either way.
    const s3OnTmpfs = process.env.S3_TMPFS !== '0' && existsSync('/dev/shm');
    s3 = spawn(process.execPath, [...mongoProfile, '--import', 'tsx', resolve(root, 'libs/objects/src/embedded-s3-cli.ts')], {
      env: s3OnTmpfs ? { ...process.env, TMPDIR: '/dev/shm' } : process.env,
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const s3Env = await new Promise<{ endpoint: string; accessKey: string; secretKey: string; bucket: string }>((ok, fail) => {
      s3!.stdout!.once('data', (d: Buffer) => ok(JSON.parse(d.toString().trim().split('\n')[0]!)));
      s3!.once('exit', () => fail(new Error('embedded S3 exited')));
    });
    // vat-service needs a VIES endpoint: the simulator, as npm start and the tests give it (in this process)
    const vies = await startViesSimulator();
    stopVies = vies.stop;
    const portOffset = await freeServicesPortOffset();
    const childEnv = {
      ...process.env,
      ...testEnv(prefix, uri, {
        BOOTSTRAP_API_KEY: key,
        QUOTA_UNLIMITED_COMPANIES: 'cmp_demo',
        // warn: only failures are logged; LOG_LEVEL=info measures what production (k8s) writes, a line per request
        LOG_LEVEL: env('LOG_LEVEL', 'warn'),
        RATE_LIMIT_PER_SECOND: '100000',
        VIES_URL: vies.url,
        S3_ENDPOINT: s3Env.endpoint,
        S3_ACCESS_KEY: s3Env.accessKey,
        S3_SECRET_KEY: s3Env.secretKey,
        S3_BUCKET: s3Env.bucket,
      }),
    };
    delete childEnv.PORT;
    const launchOptions: LaunchOptions = {
      root,
      services: ['account', 'customer', 'invoice', 'document', 'vat', 'export', 'quota', 'gateway'],
      env: childEnv,
      portOffset,
      stdio: 'ignore',
      readyTimeoutMs: 120_000,
      nodeArgs: [
        ...(process.env.PROFILE ? ['--cpu-prof', '--cpu-prof-dir', resolve(process.env.PROFILE)] : []),
        ...(process.env.NODE_FLAGS ?? '').split(' ').filter(Boolean),
      ],
      compiled: process.env.COMPILED === '1',
    };
    const launch = async () => {
      running = await launchServices(launchOptions);
      for (const s of running) {
        procs[s.name] = s.child.pid!;
        profiled.set(s.child.pid!, s.name);
      }
    };
    await launch();
    restartServices = async () => {
      await stopServices(running);
      running = [];
      await launch();
    };
    base = `${running.find((s) => s.name === 'gateway')!.url}/api/v1`;
    procs['embedded-mongo'] = mongo.pid!;
    procs['embedded-s3'] = s3.pid!;
    profiled.set(mongo.pid!, 'embedded-mongo').set(s3.pid!, 'embedded-s3');
  }
  for (const entry of (process.env.PIDS ?? '').split(',').filter(Boolean)) {
    const [name, pid] = entry.split(':');
    procs[name] = Number(pid);
  }
  const beam = findPid(/beam\.smp.*rabbit/);
  if (beam) procs.rabbitmq = beam;
  const api = client(base, key);
  try {
    await waitForApi(api);
    const customerIds: number[] = [];
    // before anything is measured, 10 at a time
    await Promise.all(
      Array.from({ length: Math.min(10, CUSTOMERS) }, async () => {
        while (customerIds.length < CUSTOMERS) {
          const n = customerIds.push(0);
          const customer = await api('POST', '/customer/', {
            organization_name: n === 1 ? 'Bench GmbH' : `Bench ${n} GmbH`,
            contact_type: 'B2B',
            email: 'ap@bench.example',
            language: 'German',
          });
          customerIds[n - 1] = customer.id as number;
          await api('POST', `/customer/${customer.id}/addresses`, {
            address_line_1: 'Hauptstraße 5',
            city: 'München',
            postal_code: '80331',
            country_code: 'DE',
          });
        }
      }),
    );

    /** The first (up to) 100 invoices of services that just started, with 10 clients: throughput, job latency, CPU. */
    const coldStart = async (label: string) => {
      const cpu0 = sample(procs, treeCpuMs);
      const threads0 = threadSample(procs);
      const self0 = loadGeneratorCpuMs();
      const fromUs = monotonicUs();
      const r = await run(api, customerIds, 10, Math.min(WARMUP, 100));
      profileWindows.push({ label, fromUs, toUs: monotonicUs() });
      const cpu = perInvoice(procs, treeCpuMs, cpu0, r.jobs.length);
      const threads = threadSample(procs);
      const loadGenerator = (loadGeneratorCpuMs() - self0) / Math.max(1, r.jobs.length);
      console.log(
        `${label}: ${r.jobs.length} invoices with 10 clients in ${r.seconds.toFixed(1)} s = ${(r.jobs.length / r.seconds).toFixed(1)}/s, job p50 ${pct(r.jobs, 50).toFixed(0)} ms p99 ${pct(r.jobs, 99).toFixed(0)} ms`,
      );
      if (r.jobs.length)
        console.log(
          `  CPU ms per invoice: total ${cpu.reduce((a, [, ms]) => a + ms, 0).toFixed(1)} = ${cpu.map(([n, ms]) => `${n} ${ms.toFixed(1)}`).join(', ')}; load generator (not in the total) ${loadGenerator.toFixed(1)}`,
        );
      if (r.jobs.length) console.log(`  our services' CPU ms per invoice by thread: ${threadLine(threads0, threads, r.jobs.length)}`);
      // the target is about the first 100 invoices: a shorter cold start (WARMUP < 100) is not judged
      return r.jobs.length >= 100 ? r.jobs.length / r.seconds : undefined;
    };
    console.log(
      `\nmachine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(
          ' ',
        )}, ${new Date().toISOString()}, poll=${POLL}, ${POSITIONS} positions per invoice, ${CUSTOMERS} customer(s), LOG_LEVEL=${env('LOG_LEVEL', 'warn')}; calibration ${calibrationMs().toFixed(1)} ms`,
    );
    const rss0 = Object.fromEntries(Object.entries(procs).map(([n, p]) => [n, rssMb(p)]));
    const ours = (rss: Record<string, number>) => Object.fromEntries(Object.entries(rss).filter(([n]) => !NOT_OURS.has(n)));
    const targets: TargetInput = { rounds: [], idleRss: ours(rss0), peakRss: {}, profiled: !!process.env.PROFILE };
    targets.coldStart = await coldStart('cold start');
    // A deployment restarts the services, not the database, object store and broker. With RESTART=1 (default) the
    // services are stopped and started again, and their first 100 invoices are measured against the already warm
    // infrastructure: above, the embedded MongoDB and S3 stand-ins (JavaScript, which production does not run) were
    // as cold as the services and warmed up with them.
    if (restartServices && env('RESTART', '1') === '1') {
      await restartServices();
      await waitForApi(api);
      for (const [n, p] of Object.entries(procs)) rss0[n] = rssMb(p);
      targets.coldRestart = await coldStart('cold start of the services alone (restarted; stand-ins and broker warm)');
    }
    const peak: Record<string, number> = { ...rss0 };
    for (const clients of CLIENTS) {
      for (let round = 1; round <= ROUNDS; round++) {
        const calibrationBefore = calibrationMs();
        const cpu0 = sample(procs, treeCpuMs);
        const threads0 = threadSample(procs);
        const self0 = loadGeneratorCpuMs();
        const writes0 = sample(procs, writeCalls);
        // only a system this harness started (`running`): a running one's /metrics may not be reachable from here
        const metrics0 = await scrapeMetrics(running);
        const fromUs = monotonicUs();
        const r = await run(api, customerIds, clients, PER_ROUND);
        profileWindows.push({ label: `${clients} client(s), round ${round}`, fromUs, toUs: monotonicUs() });
        const metrics = await scrapeMetrics(running);
        const cpu = perInvoice(procs, treeCpuMs, cpu0, r.jobs.length);
        const threads = threadSample(procs);
        const loadGenerator = (loadGeneratorCpuMs() - self0) / Math.max(1, r.jobs.length);
        const writes = perInvoice(procs, writeCalls, writes0, r.jobs.length);
        // after the round's tail (projections, audit batches, relays) has settled: the calibration runs on an idle system
        await new Promise((r) => setTimeout(r, 1500));
        const calibrationAfter = calibrationMs();
        const calibration = (calibrationBefore + calibrationAfter) / 2;
        const unsteady = Math.abs(calibrationAfter - calibrationBefore) / Math.min(calibrationAfter, calibrationBefore) > 0.15;
        const total = cpu.reduce((a, [, ms]) => a + ms, 0);
        const standIns = (cpu.find(([n]) => n === 'embedded-mongo')?.[1] ?? 0) + (cpu.find(([n]) => n === 'embedded-s3')?.[1] ?? 0);
        const withoutStandIns = total - standIns;
        for (const [n, p] of Object.entries(procs)) peak[n] = Math.max(peak[n] ?? 0, rssMb(p));
        console.log(
          `\n${clients} client(s), round ${round}: ${r.jobs.length} invoices in ${r.seconds.toFixed(1)} s = ${(r.jobs.length / r.seconds).toFixed(1)} invoices/s; ` +
            `job p50 ${pct(r.jobs, 50).toFixed(0)} / p90 ${pct(r.jobs, 90).toFixed(0)} / p99 ${pct(r.jobs, 99).toFixed(0)} ms; ` +
            `setup calls p50 ${pct(r.setup, 50).toFixed(1)} / p99 ${pct(r.setup, 99).toFixed(1)} ms`,
        );
        const withoutShared = withoutStandIns - (cpu.find(([n]) => n === 'rabbitmq')?.[1] ?? 0);
        if (r.jobs.length)
          targets.rounds.push({
            clients,
            invoicesPerSecond: r.jobs.length / r.seconds,
            jobP50: pct(r.jobs, 50),
            jobP99: pct(r.jobs, 99),
            cpuTotal: total,
            cpuWithoutStandIns: withoutStandIns,
            invoices: r.jobs.length,
            rss: ours(Object.fromEntries(Object.entries(procs).map(([n, p]) => [n, rssMb(p)]))),
          });
        console.log(
          `  CPU ms per invoice: total ${total.toFixed(1)} (without the embedded MongoDB and S3 ${withoutStandIns.toFixed(1)}; our services alone ${withoutShared.toFixed(1)}) = ${cpu.map(([n, ms]) => `${n} ${ms.toFixed(1)}`).join(', ')}`,
        );
        const unit = (ms: number) => (ms / calibration).toFixed(2);
        console.log(
          `  in calibration units (CPU ms per invoice / calibration ms ${calibrationBefore.toFixed(1)} before, ${calibrationAfter.toFixed(1)} after${unsteady ? ': the VM changed speed during the round, compare with care' : ''}): total ${unit(total)}, our services alone ${unit(withoutShared)} = ${cpu.map(([n, ms]) => `${n} ${unit(ms)}`).join(', ')}`,
        );
        console.log(`  our services' CPU ms per invoice by thread: ${threadLine(threads0, threads, r.jobs.length)}`);
        console.log(
          `  load generator (this process, not in the total): ${loadGenerator.toFixed(1)} CPU ms per invoice (LOADGEN=${env('LOADGEN', 'http')})`,
        );
        console.log(
          `  write system calls per invoice: total ${writes.reduce((a, [, w]) => a + w, 0).toFixed(1)} = ${writes.map(([n, w]) => `${n} ${w.toFixed(1)}`).join(', ')}`,
        );
        if (metrics.size) {
          console.log(`  finalize phases, mean ms (the services' histograms): ${phaseLine(phaseTotals(metrics0), phaseTotals(metrics))}`);
          const gc0 = gcSeconds(metrics0);
          const gcMs = Object.entries(gcSeconds(metrics)).map(
            ([n, sec]) => `${n} ${(((sec - (gc0[n] ?? 0)) * 1000) / r.jobs.length).toFixed(2)}`,
          );
          console.log(`  GC pause ms per invoice (main threads): ${gcMs.join(', ')}`);
          console.log(`  V8 heap used/total MB after the round: ${heapLine(metrics)}`);
          console.log(`  bus messages per invoice: ${busLine(busCounts(metrics0), busCounts(metrics), r.jobs.length)}`);
        }
        console.log(
          `  RSS MB after the round: ${Object.entries(procs)
            .map(([n, p]) => `${n} ${rssMb(p).toFixed(0)}`)
            .join(', ')}`,
        );
      }
    }
    console.log(
      `\nRSS MB idle -> peak: ${Object.keys(procs)
        .map((n) => `${n} ${rss0[n].toFixed(0)}->${peak[n].toFixed(0)}`)
        .join(', ')}`,
    );
    // against a running system (BASE), only the processes named in PIDS are measured
    targets.peakRss = ours(peak);
    for (const line of targetReport(targets)) console.log(line);
  } finally {
    await stopServices(running);
    // the stand-ins write their CPU profiles as they exit: wait for that
    await Promise.all([mongo, s3].map((c) => c && stopProcess(c)));
    await stopVies();
    if (running.length) {
      await deleteBrokerObjects(prefix);
      await deleteRedisKeys(`${prefix}:`);
    }
  }
  if (process.env.PROFILE && profileWindows.length)
    for (const line of profileReport(resolve(process.env.PROFILE), profileWindows, profiled, Number(env('PROFILE_TOP', '6'))))
      console.log(line);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
