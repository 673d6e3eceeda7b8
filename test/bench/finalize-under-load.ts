/**
 * The harness of the benchmarks that ask what some other work costs a finalization (`bench:webhooks-finalize`,
 * `bench:inbound-finalize`). The whole system, with the service under test, as separate processes; one client
 * finalizes invoices through the gateway (create, 3 positions, POST job, wait for the job, as `bench:finalize` does)
 * in phases that alternate between `none` and the loaded mode (PHASES), so that the machine's noise hits both.
 *
 * Per mode it prints the job's p50/p90/p99 (POST job -> finished) and the CPU ms per finalization of the processes it
 * started (utime+stime from /proc/<pid>/stat, child processes included: the services, and apart from them the
 * embedded MongoDB and S3 stand-ins), then the p99 and p50 ratios against the target (p99 within 10 % of none).
 *
 * Env: WARMUP (10 invoices, not measured), PER_PHASE (30 invoices), PHASES (none,<mode>,none,<mode>), LOG_LEVEL (warn),
 * PROFILE=dir (every service writes a V8 CPU profile there when it stops; the harness then prints each process's
 * largest packages and functions by self time per phase, see cpu-profiles.ts), PROFILE_TOP (8).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { freeServicesPortOffset, launchServices, stopProcess, stopServices, type RunningService, type ServiceName } from '@inv/runtime';
import { deleteBrokerObjects, deleteRedisKeys, testEnv, uniquePrefix } from '@inv/testing';
import { startViesSimulator } from '@inv/vies-simulator';
import { apiClient } from '../support/system';
import { profileReport, type ProfileWindow } from './cpu-profiles';
import { pct, treeCpuMs } from './proc';

export const env = (name: string, fallback: string) => process.env[name] ?? fallback;
export const root = resolve(__dirname, '../..');
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The running system as a load sees it: the API base, the bootstrap key, and a call that throws on a 4xx/5xx. */
export interface BenchSystem {
  base: string;
  key: string;
  must: (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>;
}

/** The work whose cost is measured, in the phases of its mode. */
export interface Load {
  /** Its name in PHASES (`five`, `uploads`). */
  mode: string;
  /** The service that does the work, started beside the usual ones. */
  service: ServiceName;
  /** Environment for every service. */
  env?: NodeJS.ProcessEnv;
  /** After the invoices' warm-up (not measured). */
  warmUp?: (sys: BenchSystem) => Promise<void>;
  /** Before a phase's measurement (not measured); `loaded`: a phase of the load's mode. */
  prepare?: (sys: BenchSystem, loaded: boolean) => Promise<void>;
  /**
   * As a phase's measurement starts: answers how to end it once `finalized` invoices are done (waiting for what the load
   * and they caused), with a note for the phase's line.
   */
  start: (sys: BenchSystem, loaded: boolean) => Promise<(finalized: number) => Promise<string>>;
  /** After a phase's measurement (not measured). */
  cleanup?: (sys: BenchSystem, loaded: boolean) => Promise<void>;
  /** The summary's name of a mode. */
  label: (loaded: boolean) => string;
}

/** A development stand-in in a process of its own (its CPU is counted apart), answering its first stdout line. */
async function standIn(script: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(root, script)], {
    cwd: root,
    env: { ...process.env, ...extraEnv },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((ok, fail) => {
    child.stdout!.once('data', (d: Buffer) => ok(d.toString().trim().split('\n')[0]!));
    child.once('exit', () => fail(new Error(`${script} exited`)));
  });
  return { child, line };
}

export async function finalizeUnderLoad(load: Load): Promise<void> {
  const WARMUP = Number(env('WARMUP', '10'));
  const PER_PHASE = Number(env('PER_PHASE', '30'));
  const PHASES = env('PHASES', `none,${load.mode},none,${load.mode}`).split(',');

  const mongo = await standIn('libs/embedded-mongo/src/cli.ts');
  const s3 = await standIn('libs/objects/src/embedded-s3-cli.ts', { TMPDIR: '/dev/shm' });
  const s3Env = JSON.parse(s3.line) as { endpoint: string; accessKey: string; secretKey: string; bucket: string };
  const vies = await startViesSimulator();
  const prefix = uniquePrefix(`bench-${load.service}-fin-${process.pid}`);
  const key = `ak_live_${randomBytes(16).toString('hex')}`;
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    ...testEnv(prefix, mongo.line, {
      BOOTSTRAP_API_KEY: key,
      QUOTA_UNLIMITED_COMPANIES: 'cmp_demo',
      RATE_LIMIT_PER_SECOND: '100000',
      LOG_LEVEL: env('LOG_LEVEL', 'warn'),
      VIES_URL: vies.url,
      S3_ENDPOINT: s3Env.endpoint,
      S3_ACCESS_KEY: s3Env.accessKey,
      S3_SECRET_KEY: s3Env.secretKey,
      S3_BUCKET: s3Env.bucket,
      ...load.env,
    }),
  };
  delete childEnv.PORT;
  const profileDir = process.env.PROFILE ? resolve(process.env.PROFILE) : undefined;
  const windows: ProfileWindow[] = [];
  const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);
  let running: RunningService[] = [];
  try {
    running = await launchServices({
      root,
      services: ['account', 'customer', 'invoice', 'document', 'vat', 'export', 'quota', load.service, 'gateway'],
      env: childEnv,
      portOffset: await freeServicesPortOffset(),
      stdio: 'ignore',
      readyTimeoutMs: 180_000,
      nodeArgs: profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [],
    });
    const base = `${running.find((s) => s.name === 'gateway')!.url}/api/v1`;
    const api = apiClient(
      () => base,
      () => key,
    );
    // the demo company is bootstrapped after account-service is ready
    for (let i = 0; (await api('GET', '/invoice/?limit=1')).status !== 200; i++) {
      if (i > 120) throw new Error('the bootstrap API key does not work');
      await sleep(250);
    }
    const must = async (method: string, path: string, body?: unknown) => {
      const res = await api(method, path, body);
      if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body as Record<string, unknown>;
    };
    const sys: BenchSystem = { base, key, must };
    const services = Object.fromEntries(running.map((s) => [s.name, s.child.pid!]));
    const standIns = { 'embedded-mongo': mongo.child.pid!, 'embedded-s3': s3.child.pid! };
    const cpuOf = (procs: Record<string, number>) => Object.values(procs).reduce((a, pid) => a + treeCpuMs(pid), 0);

    const customer = await must('POST', '/customer/', {
      organization_name: 'Bench GmbH',
      contact_type: 'B2B',
      email: 'ap@bench.example',
      language: 'German',
    });
    await must('POST', `/customer/${String(customer.id)}/addresses`, {
      address_line_1: 'Hauptstraße 5',
      city: 'München',
      postal_code: '80331',
      country_code: 'DE',
    });
    const oneInvoice = async (): Promise<number> => {
      const id = (await must('POST', '/invoice/', { customer_id: customer.id, invoice_format: 'ZUGFERD' })).invoice_id as number;
      for (const [title, quantity, price] of [
        ['Beratung', 7.5, 95],
        ['Reisekosten', 1, 86.35],
        ['Lizenz', 3, 19.99],
      ] as const)
        await must('POST', `/invoice/${id}/positions`, { title, quantity, unit_id: 'C62', unit_net_amount: price, tax_rate: 0.19 });
      const started = performance.now();
      const job = await must('POST', `/invoice/${id}/job`, { task: 'process_invoice_flag_invoice_send_job' });
      for (;;) {
        const j = await must('GET', `/invoice/${id}/job/${job.job_id as string}?wait=25`);
        if (j.status === 'finished') break;
        if (j.status === 'failed') throw new Error(`job failed: ${JSON.stringify(j)}`);
      }
      return performance.now() - started;
    };

    console.log(
      `machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}, ${new Date().toISOString()}; warm-up ${WARMUP}, ${PER_PHASE} finalizations per phase, phases ${PHASES.join(', ')}`,
    );
    for (let i = 0; i < WARMUP; i++) await oneInvoice();
    await load.warmUp?.(sys);
    await sleep(1000);

    const results: Record<string, { jobs: number[]; cpu: number; standIns: number; invoices: number; byProcess: Record<string, number> }> =
      {};
    for (const [n, mode] of PHASES.entries()) {
      const loaded = mode === load.mode;
      await load.prepare?.(sys, loaded);
      const cpu0 = cpuOf(services);
      const standIns0 = cpuOf(standIns);
      const each0 = Object.fromEntries(Object.entries({ ...services, ...standIns }).map(([name, pid]) => [name, treeCpuMs(pid)]));
      const fromUs = monotonicUs();
      const end = await load.start(sys, loaded);
      const jobs: number[] = [];
      for (let i = 0; i < PER_PHASE; i++) jobs.push(await oneInvoice());
      const note = await end(jobs.length);
      // a moment for the tail (both modes alike)
      await sleep(1000);
      windows.push({ label: `phase ${n + 1} (${mode})`, fromUs, toUs: monotonicUs() });
      const cpu = (cpuOf(services) - cpu0) / PER_PHASE;
      const standInsCpu = (cpuOf(standIns) - standIns0) / PER_PHASE;
      console.log(
        `phase ${n + 1} (${mode}): job p50 ${pct(jobs, 50).toFixed(0)} / p90 ${pct(jobs, 90).toFixed(0)} / p99 ${pct(jobs, 99).toFixed(0)} ms; ` +
          `CPU ms per finalization: services ${cpu.toFixed(1)}, stand-ins ${standInsCpu.toFixed(1)}${note ? `; ${note}` : ''}`,
      );
      const r = (results[mode] ??= { jobs: [], cpu: 0, standIns: 0, invoices: 0, byProcess: {} });
      for (const [name, pid] of Object.entries({ ...services, ...standIns }))
        r.byProcess[name] = (r.byProcess[name] ?? 0) + treeCpuMs(pid) - each0[name]!;
      r.jobs.push(...jobs);
      r.cpu += cpu * PER_PHASE;
      r.standIns += standInsCpu * PER_PHASE;
      r.invoices += PER_PHASE;
      await load.cleanup?.(sys, loaded);
    }
    console.log('');
    for (const [mode, r] of Object.entries(results))
      console.log(
        `${load.label(mode === load.mode)}: ${r.invoices} finalizations, job p50 ${pct(r.jobs, 50).toFixed(0)} / p90 ${pct(r.jobs, 90).toFixed(0)} / p99 ${pct(r.jobs, 99).toFixed(0)} ms; ` +
          `CPU ms per finalization: services ${(r.cpu / r.invoices).toFixed(1)}, stand-ins ${(r.standIns / r.invoices).toFixed(1)}\n  by process: ${Object.entries(
            r.byProcess,
          )
            .map(([name, ms]) => `${name} ${(ms / r.invoices).toFixed(1)}`)
            .join(', ')}`,
      );
    const none = results.none;
    const loadedResult = results[load.mode];
    if (none && loadedResult) {
      const ratio = pct(loadedResult.jobs, 99) / pct(none.jobs, 99);
      console.log(
        `p99 with ${load.label(true)} / none: ${ratio.toFixed(2)} (target at most 1.10: ${ratio <= 1.1 ? 'met' : 'NOT met'}); ` +
          `p50 ${(pct(loadedResult.jobs, 50) / pct(none.jobs, 50)).toFixed(2)}; services' CPU ${(loadedResult.cpu / loadedResult.invoices - none.cpu / none.invoices).toFixed(1)} ms more per finalization`,
      );
    }
  } finally {
    const pids = new Map(running.map((s) => [s.child.pid!, s.name]));
    await stopServices(running);
    await deleteBrokerObjects(prefix);
    await deleteRedisKeys(`${prefix}:`);
    await Promise.all([mongo.child, s3.child].map((c) => stopProcess(c)));
    await vies.stop();
    // the services write their profiles as they stop
    if (profileDir && windows.length)
      for (const line of profileReport(profileDir, windows, pids, Number(env('PROFILE_TOP', '8')))) console.log(line);
  }
}

/** Runs a benchmark's main and exits with its outcome (the services' handles would keep the process alive). */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
