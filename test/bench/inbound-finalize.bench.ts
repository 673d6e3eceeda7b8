/**
 * `npm run bench:inbound-finalize`: what receiving e-invoices costs a finalization. The whole system (inbound-service
 * included) as separate processes; one client finalizes invoices through the gateway (create, 3 positions, POST job,
 * wait for the job, as `bench:finalize` does) in phases that alternate between no upload and UPLOADERS (10) clients
 * each uploading a typical XRechnung (the kit's 01.01a UBL example, about 6 KB) to POST /inbound/ and long-polling its
 * job to the end, again and again, for the whole phase: none, uploads, none, uploads (PHASES), so that the machine's
 * noise hits both.
 *
 * Per mode it prints the finalization job's p50/p90/p99 (POST job -> finished), the documents received in the phase
 * and their p50/p99 (POST -> job ended), and the CPU ms per finalization of the processes it started (utime+stime from
 * /proc/<pid>/stat, child processes included). The target: p99 with uploads within 10 % of none.
 *
 * Env: WARMUP (10 invoices, not measured), PER_PHASE (30 invoices), PHASES (none,uploads,none,uploads), UPLOADERS (10),
 * LOG_LEVEL (warn), INBOUND_WORKERS (the service's default when unset), PROFILE=dir, PROFILE_TOP (8).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { freeServicesPortOffset, launchServices, stopProcess, stopServices, type RunningService } from '@inv/runtime';
import { deleteBrokerObjects, deleteRedisKeys, testEnv, uniquePrefix } from '@inv/testing';
import { startViesSimulator } from '@inv/vies-simulator';
import { apiClient } from '../support/system';
import { profileReport, type ProfileWindow } from './cpu-profiles';
import { pct, treeCpuMs } from './proc';

const env = (name: string, fallback: string) => process.env[name] ?? fallback;
const WARMUP = Number(env('WARMUP', '10'));
const PER_PHASE = Number(env('PER_PHASE', '30'));
const PHASES = env('PHASES', 'none,uploads,none,uploads').split(',') as ('none' | 'uploads')[];
const UPLOADERS = Number(env('UPLOADERS', '10'));
const root = resolve(__dirname, '../..');
const KIT = process.env.INBOUND_CONFORMANCE_DIR ?? resolve(root, '../shared/conformance');
const XRECHNUNG = readFileSync(join(KIT, 'xrechnung/examples/01.01a-INVOICE_ubl.xml'));

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

async function main() {
  const mongo = await standIn('libs/embedded-mongo/src/cli.ts');
  const s3 = await standIn('libs/objects/src/embedded-s3-cli.ts', { TMPDIR: '/dev/shm' });
  const s3Env = JSON.parse(s3.line) as { endpoint: string; accessKey: string; secretKey: string; bucket: string };
  const vies = await startViesSimulator();
  const prefix = uniquePrefix(`bench-inf-${process.pid}`);
  const key = `ak_live_${randomBytes(16).toString('hex')}`;
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    ...testEnv(prefix, mongo.line, {
      BOOTSTRAP_API_KEY: key,
      QUOTA_UNLIMITED_COMPANIES: 'cmp_demo',
      RATE_LIMIT_PER_SECOND: '100000',
      INBOUND_CONFORMANCE_DIR: KIT,
      LOG_LEVEL: env('LOG_LEVEL', 'warn'),
      VIES_URL: vies.url,
      S3_ENDPOINT: s3Env.endpoint,
      S3_ACCESS_KEY: s3Env.accessKey,
      S3_SECRET_KEY: s3Env.secretKey,
      S3_BUCKET: s3Env.bucket,
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
      services: ['account', 'customer', 'invoice', 'document', 'vat', 'export', 'quota', 'inbound', 'gateway'],
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
      await new Promise((r) => setTimeout(r, 250));
    }
    const must = async (method: string, path: string, body?: unknown) => {
      const res = await api(method, path, body);
      if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    };
    const services = Object.fromEntries(running.map((s) => [s.name, s.child.pid!]));
    const standIns = { 'embedded-mongo': mongo.child.pid!, 'embedded-s3': s3.child.pid! };
    const cpuOf = (procs: Record<string, number>) => Object.values(procs).reduce((a, pid) => a + treeCpuMs(pid), 0);

    const customer = await must('POST', '/customer/', {
      organization_name: 'Bench GmbH',
      contact_type: 'B2B',
      email: 'ap@bench.example',
      language: 'German',
    });
    await must('POST', `/customer/${customer.id}/addresses`, {
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
    /** One upload: POST /inbound/ (202), then its job long-polled to the end; the time from POST to the end. */
    const oneUpload = async (): Promise<number> => {
      const started = performance.now();
      const res = await fetch(`${base}/inbound/`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/xml' },
        body: XRECHNUNG,
      });
      const job = (await res.json()) as { id: number; status: string };
      if (res.status !== 202) throw new Error(`POST /inbound/: ${res.status} ${JSON.stringify(job)}`);
      for (let j = job; j.status === 'queued' || j.status === 'started';)
        j = (await must('GET', `/inbound/${job.id}/job?wait=25`)) as typeof job;
      return performance.now() - started;
    };
    /** UPLOADERS clients uploading one document after another until `stop` is set; answers each upload's time. */
    const uploading = () => {
      const times: number[] = [];
      const state = { stop: false };
      const clients = Array.from({ length: UPLOADERS }, async () => {
        while (!state.stop) times.push(await oneUpload());
      });
      return {
        times,
        async end() {
          state.stop = true;
          await Promise.all(clients);
        },
      };
    };

    console.log(
      `machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}, ${new Date().toISOString()}; warm-up ${WARMUP}, ${PER_PHASE} finalizations per phase, phases ${PHASES.join(', ')}`,
    );
    for (let i = 0; i < WARMUP; i++) await oneInvoice();
    for (let i = 0; i < 3; i++) await oneUpload();
    await new Promise((r) => setTimeout(r, 1000));

    const results: Record<
      string,
      { jobs: number[]; uploads: number[]; cpu: number; standIns: number; invoices: number; byProcess: Record<string, number> }
    > = {};
    for (const [n, mode] of PHASES.entries()) {
      const cpu0 = cpuOf(services);
      const standIns0 = cpuOf(standIns);
      const each0 = Object.fromEntries(Object.entries({ ...services, ...standIns }).map(([name, pid]) => [name, treeCpuMs(pid)]));
      const fromUs = monotonicUs();
      const load = mode === 'uploads' ? uploading() : undefined;
      // the uploaders' first documents are on their way before the first finalization
      if (load) await new Promise((r) => setTimeout(r, 500));
      const jobs: number[] = [];
      for (let i = 0; i < PER_PHASE; i++) jobs.push(await oneInvoice());
      await load?.end();
      const uploads = load?.times ?? [];
      await new Promise((r) => setTimeout(r, 1000));
      windows.push({ label: `phase ${n + 1} (${mode})`, fromUs, toUs: monotonicUs() });
      const cpu = (cpuOf(services) - cpu0) / PER_PHASE;
      const standInsCpu = (cpuOf(standIns) - standIns0) / PER_PHASE;
      console.log(
        `phase ${n + 1} (${mode}): job p50 ${pct(jobs, 50).toFixed(0)} / p90 ${pct(jobs, 90).toFixed(0)} / p99 ${pct(jobs, 99).toFixed(0)} ms; ` +
          `CPU ms per finalization: services ${cpu.toFixed(1)}, stand-ins ${standInsCpu.toFixed(1)}` +
          (uploads.length
            ? `; ${uploads.length} documents received, p50 ${pct(uploads, 50).toFixed(0)} / p99 ${pct(uploads, 99).toFixed(0)} ms`
            : ''),
      );
      const r = (results[mode] ??= { jobs: [], uploads: [], cpu: 0, standIns: 0, invoices: 0, byProcess: {} });
      for (const [name, pid] of Object.entries({ ...services, ...standIns }))
        r.byProcess[name] = (r.byProcess[name] ?? 0) + treeCpuMs(pid) - each0[name]!;
      r.jobs.push(...jobs);
      r.uploads.push(...uploads);
      r.cpu += cpu * PER_PHASE;
      r.standIns += standInsCpu * PER_PHASE;
      r.invoices += PER_PHASE;
    }
    console.log('');
    for (const [mode, r] of Object.entries(results))
      console.log(
        `${mode === 'uploads' ? `${UPLOADERS} uploaders (${r.uploads.length} documents, p50 ${pct(r.uploads, 50).toFixed(0)} / p99 ${pct(r.uploads, 99).toFixed(0)} ms)` : 'no upload'}: ${r.invoices} finalizations, job p50 ${pct(r.jobs, 50).toFixed(0)} / p90 ${pct(r.jobs, 90).toFixed(0)} / p99 ${pct(r.jobs, 99).toFixed(0)} ms; ` +
          `CPU ms per finalization: services ${(r.cpu / r.invoices).toFixed(1)}, stand-ins ${(r.standIns / r.invoices).toFixed(1)}\n  by process: ${Object.entries(
            r.byProcess,
          )
            .map(([name, ms]) => `${name} ${(ms / r.invoices).toFixed(1)}`)
            .join(', ')}`,
      );
    if (results.none && results.uploads) {
      const ratio = pct(results.uploads.jobs, 99) / pct(results.none.jobs, 99);
      console.log(
        `finalization p99 with ${UPLOADERS} uploaders / none: ${ratio.toFixed(2)} (target at most 1.10: ${ratio <= 1.1 ? 'met' : 'NOT met'}); ` +
          `p50 ${(pct(results.uploads.jobs, 50) / pct(results.none.jobs, 50)).toFixed(2)}`,
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

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
