import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { SERVICE_ENV, serviceNodeFlags } from './node-flags';
import { freePortOffset } from './ports';
import { isStartupMessage } from './startup-progress';

/** Every deployable service: folder under apps/, default port. */
export const SERVICES = {
  account: { dir: 'account-service', port: 3001 },
  customer: { dir: 'customer-service', port: 3002 },
  invoice: { dir: 'invoice-service', port: 3003 },
  document: { dir: 'document-service', port: 3004 },
  vat: { dir: 'vat-service', port: 3005 },
  export: { dir: 'export-service', port: 3006 },
  quota: { dir: 'quota-service', port: 3007 },
  inbound: { dir: 'inbound-service', port: 3009 },
  webhook: { dir: 'webhook-service', port: 3008 },
  recurring: { dir: 'recurring-service', port: 3010 },
  gateway: { dir: 'gateway', port: 8080 },
  web: { dir: 'web', port: 3011 },
} as const;
export type ServiceName = keyof typeof SERVICES;

/**
 * The services that keep no data (no `database` in their runtime, or none at all: the gateway). The launcher gives
 * them no MongoDB address, and `npm start` of only these starts no MongoDB.
 */
export const SERVICES_WITHOUT_DATABASE: ReadonlySet<ServiceName> = new Set<ServiceName>(['document', 'vat', 'gateway', 'web']);
export const needsDatabase = (name: ServiceName): boolean => !SERVICES_WITHOUT_DATABASE.has(name);

export function parseServiceList(spec: string): ServiceName[] {
  if (spec.trim() === 'all') return Object.keys(SERVICES) as ServiceName[];
  const names = spec
    .split(',')
    .map((s) => s.trim().replace(/-service$/, ''))
    .filter(Boolean);
  const unknown = names.filter((n) => !(n in SERVICES));
  if (unknown.length) throw new Error(`unknown service(s) ${unknown.join(', ')}; known: all, ${Object.keys(SERVICES).join(', ')}`);
  return names as ServiceName[];
}

export interface RunningService {
  name: ServiceName;
  url: string;
  child: ChildProcess;
  /**
   * The last few KB the service wrote, for error messages: stdout and stderr with stdio 'ignore', stderr (where a
   * service's start-up failure goes) with 'inherit'.
   */
  outputTail?: () => string;
  /** What it said it is doing while it starts (reportStartup over the IPC channel), and when it said so. */
  startup: { step?: string; at: number };
}

export interface LaunchOptions {
  root: string;
  services: ServiceName[];
  /** Environment of every child (MONGO_URL, BUS_PREFIX, ...). */
  env: NodeJS.ProcessEnv;
  /** Port of each service = its default + offset (lets tests run beside a dev stack). */
  portOffset?: number;
  /** The gateway's port when set (npm start honours PORT); the dashboard's GATEWAY_URL follows it. */
  gatewayPort?: number;
  stdio?: 'inherit' | 'ignore' | 'pipe';
  /** A hard limit on each service's start (ms); without one, a service is waited for as long as it makes progress. */
  readyTimeoutMs?: number;
  /** How long a starting service may go without progress (see waitReady) before the start fails; default 120 s. */
  stallMs?: number;
  /** Called as a starting service reports a step (reportStartup), e.g. 'connecting to RabbitMQ'. */
  onProgress?: (svc: RunningService, step: string) => void;
  /** Extra node flags of each service process (e.g. --cpu-prof, which NODE_OPTIONS does not allow). */
  nodeArgs?: string[];
  /** Run the compiled build (`dist/<service>/main.js`, `npm run build:services`) instead of the TypeScript through tsx. */
  compiled?: boolean;
  /** Where the compiled build is (`BUILD_OUT` of tools/build-services.mjs); default `<root>/dist`. */
  distDir?: string;
  /** Called as each service's process is spawned, before it is ready (progress output; tracking it for a stop). */
  onStarting?: (svc: RunningService) => void;
  /** Called as each service answers its readiness probe, with the milliseconds since it was spawned. */
  onReady?: (svc: RunningService, ms: number) => void;
}

export function serviceUrls(offset = 0, gatewayPort?: number): Record<string, string> {
  const url = (n: ServiceName) => `http://127.0.0.1:${SERVICES[n].port + offset}`;
  return {
    ACCOUNT_URL: url('account'),
    CUSTOMER_URL: url('customer'),
    INVOICE_URL: url('invoice'),
    DOCUMENT_URL: url('document'),
    EXPORT_URL: url('export'),
    QUOTA_URL: url('quota'),
    INBOUND_URL: url('inbound'),
    WEBHOOK_URL: url('webhook'),
    RECURRING_URL: url('recurring'),
    WEB_URL: url('web'),
    // the dashboard calls the public API, like any integrator
    GATEWAY_URL: gatewayPort ? `http://127.0.0.1:${gatewayPort}` : url('gateway'),
  };
}

/**
 * Starts one service as its own process. tsx is loaded into that node process with `--import` rather
 * than through the `tsx` CLI, because the CLI runs the program in a second, child process: a signal sent
 * to the CLI (SIGKILL in crash tests, or a supervisor's) would leave the real service running orphaned.
 */
export function spawnService(name: ServiceName, opts: LaunchOptions): RunningService {
  const port = name === 'gateway' && opts.gatewayPort ? opts.gatewayPort : SERVICES[name].port + (opts.portOffset ?? 0);
  const entry = opts.compiled
    ? join(opts.distDir ?? join(opts.root, 'dist'), SERVICES[name].dir, 'main.js')
    : join(opts.root, 'apps', SERVICES[name].dir, 'src', 'main.ts');
  // 'ignore' still keeps the output's tail: a service that dies before it is ready says why in the error
  const stdio = opts.stdio ?? 'inherit';
  const nodeArgs = [...serviceNodeFlags(), ...(opts.nodeArgs ?? []), ...(opts.compiled ? [] : ['--import', 'tsx'])];
  const env: NodeJS.ProcessEnv = { ...SERVICE_ENV, ...opts.env, ...serviceUrls(opts.portOffset, opts.gatewayPort), PORT: String(port) };
  if (!needsDatabase(name)) {
    // the address carries the database credentials: a service that keeps no data does not get them
    delete env.MONGO_URL;
    delete env.MONGO_DATABASE_PREFIX;
  }
  // an IPC channel: the service reports its start-up steps (startup-progress.ts). With 'inherit', stderr passes through
  // this process (copied to its stderr as it comes) so that a failure can quote it; stdout stays the terminal's own
  // (the services pretty-print their logs only to a terminal).
  const child = spawn(process.execPath, [...nodeArgs, entry], {
    cwd: opts.root,
    env,
    stdio:
      stdio === 'ignore'
        ? ['ignore', 'pipe', 'pipe', 'ipc']
        : stdio === 'inherit'
          ? ['inherit', 'inherit', 'pipe', 'ipc']
          : [stdio, stdio, stdio, 'ipc'],
  });
  const svc: RunningService = { name, url: `http://127.0.0.1:${port}`, child, startup: { at: Date.now() } };
  child.on('message', (m: unknown) => {
    if (!isStartupMessage(m)) return;
    svc.startup = { step: m.step.slice(0, 200), at: Date.now() };
    opts.onProgress?.(svc, svc.startup.step!);
  });
  // the channel only carries start-up steps: it must not keep this process alive, nor the child's exit wait on it
  child.channel?.unref();
  if (stdio === 'pipe') return svc;
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-OUTPUT_TAIL_CHARS);
  };
  if (stdio === 'ignore') child.stdout?.on('data', keep);
  child.stderr?.on('data', (chunk: Buffer) => {
    keep(chunk);
    if (stdio === 'inherit') process.stderr.write(chunk);
  });
  svc.outputTail = () => tail;
  return svc;
}

const OUTPUT_TAIL_CHARS = 4096;

/** The last lines a service wrote, for a message about it. */
const lastLines = (svc: RunningService, lines = 20) => {
  const tail = svc.outputTail?.().trim();
  return tail ? `; its last output:\n${tail.split('\n').slice(-lines).join('\n')}` : '';
};

function exitedError(svc: RunningService): Error {
  const how = svc.child.signalCode ? `signal ${svc.child.signalCode}` : `code ${svc.child.exitCode}`;
  return new Error(`${svc.name} exited with ${how} before it was ready${lastLines(svc)}`);
}

/** CPU time (user + system, ms) the process has used so far, from /proc (Linux); undefined elsewhere or once it is gone. */
export function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // USER_HZ = 100 on Linux
  } catch {
    return undefined;
  }
}

/** CPU a starting service must use per second to count as working (loading and compiling its modules) rather than idling. */
const WORKING_CPU_MS_PER_S = 20;
export const DEFAULT_STALL_MS = 120_000;

/**
 * One GET of `url` through node:http; resolves the status code, or undefined when nothing answers within
 * `timeoutMs` (not listening yet, reset, timeout). Not `fetch()`: undici refuses the ports of its "bad ports" list
 * (6000, 6665-6669, 10080 = the gateway's 8080 + PORT_OFFSET=2000, ...) with a TypeError before connecting, so a
 * readiness check through fetch never succeeds on them.
 */
export function httpStatus(url: string, timeoutMs = 1000): Promise<number | undefined> {
  return new Promise((resolvePromise) => {
    const req = request(url, { method: 'GET', agent: false, timeout: timeoutMs }, (res) => {
      res.resume(); // the body is not needed; reading it lets the socket close
      resolvePromise(res.statusCode);
    });
    req.once('timeout', () => req.destroy(new Error('timeout')));
    req.once('error', () => resolvePromise(undefined));
    req.end();
  });
}

/** True when `url` answers 2xx within `timeoutMs` (a service's /readyz). */
export async function probeReady(url: string, timeoutMs = 1000): Promise<boolean> {
  const status = await httpStatus(url, timeoutMs);
  return status !== undefined && status >= 200 && status < 300;
}

/**
 * Polls /readyz until the service answers 200 (no fixed sleeps). Fails when the process exits, after `timeoutMs`
 * (a hard limit; Infinity for none), or when it has made no progress for `stallMs`. Progress is any of: a start-up step
 * it reports (reportStartup), CPU it uses (loading and compiling its modules, at least 20 ms a second: a loaded machine
 * slows a start down but does not stop it), a /readyz answer that changed (its checks turning ready one by one).
 */
export async function waitReady(
  svc: RunningService,
  timeoutMs = 60_000,
  opts: { stallMs?: number; now?: () => number } = {},
): Promise<void> {
  const now = opts.now ?? Date.now;
  const started = now();
  const stallMs = opts.stallMs ?? DEFAULT_STALL_MS;
  let progressAt = started;
  let lastCpu = processCpuMs(svc.child.pid);
  let lastCpuAt = started;
  let lastAnswer: string | undefined;
  for (;;) {
    if (svc.child.exitCode !== null || svc.child.signalCode !== null) throw exitedError(svc);
    const answer = await readyzAnswer(`${svc.url}/readyz`);
    if (answer.ready) return;
    const t = now();
    if (answer.body !== undefined && answer.body !== lastAnswer) {
      if (lastAnswer !== undefined) progressAt = t;
      lastAnswer = answer.body;
    }
    progressAt = Math.max(progressAt, svc.startup.at);
    const cpu = processCpuMs(svc.child.pid);
    if (cpu !== undefined && lastCpu !== undefined && t - lastCpuAt >= 1000) {
      if (cpu - lastCpu >= (WORKING_CPU_MS_PER_S * (t - lastCpuAt)) / 1000) progressAt = t;
      lastCpu = cpu;
      lastCpuAt = t;
    } else if (lastCpu === undefined) lastCpu = cpu;
    const step = svc.startup.step ? ` (last step: ${svc.startup.step})` : '';
    if (t - started >= timeoutMs) throw new Error(`${svc.name} not ready after ${timeoutMs} ms${step}${lastLines(svc)}`);
    if (t - progressAt >= stallMs)
      throw new Error(`${svc.name} not ready: no progress for ${Math.round((t - progressAt) / 1000)} s${step}${lastLines(svc)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** One GET of /readyz: ready (2xx), and its body when it answered (the checks, to see them change). */
function readyzAnswer(url: string, timeoutMs = 1000): Promise<{ ready: boolean; body?: string }> {
  return new Promise((resolvePromise) => {
    const req = request(url, { method: 'GET', agent: false, timeout: timeoutMs }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body = (body + c).slice(0, 4096)));
      res.on('end', () => resolvePromise({ ready: res.statusCode! >= 200 && res.statusCode! < 300, body: `${res.statusCode} ${body}` }));
      res.on('error', () => resolvePromise({ ready: false }));
    });
    req.once('timeout', () => req.destroy(new Error('timeout')));
    req.once('error', () => resolvePromise({ ready: false }));
    req.end();
  });
}

export async function launchServices(opts: LaunchOptions): Promise<RunningService[]> {
  const running = opts.services.map((name) => {
    const svc = spawnService(name, opts);
    opts.onStarting?.(svc);
    return svc;
  });
  try {
    await Promise.all(
      running.map(async (svc) => {
        const started = Date.now();
        await waitReady(svc, opts.readyTimeoutMs ?? Infinity, { stallMs: opts.stallMs });
        opts.onReady?.(svc, Date.now() - started);
      }),
    );
  } catch (err) {
    await stopServices(running);
    throw err;
  }
  return running;
}

/** SIGTERM (graceful), then SIGKILL after `graceMs`; resolves when the process has exited. */
export async function stopProcess(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** A service's process: SIGTERM (graceful), then SIGKILL after `graceMs`. */
export const stopService = (svc: RunningService, graceMs = 10_000): Promise<void> => stopProcess(svc.child, graceMs);

export async function stopServices(running: RunningService[]): Promise<void> {
  await Promise.all(running.map((svc) => stopService(svc)));
}

/** A port offset under which every service's port is free now (tests and benchmarks beside other runs). */
export const freeServicesPortOffset = () => freePortOffset(Object.values(SERVICES).map((s) => s.port));
