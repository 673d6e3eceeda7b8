import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { SERVICE_ENV, serviceNodeFlags } from './node-flags';
import { freePortOffset } from './ports';

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
} as const;
export type ServiceName = keyof typeof SERVICES;

/**
 * The services that keep no data (no `database` in their runtime, or none at all: the gateway). The launcher gives
 * them no MongoDB address, and `npm start` of only these starts no MongoDB.
 */
export const SERVICES_WITHOUT_DATABASE: ReadonlySet<ServiceName> = new Set<ServiceName>(['document', 'vat', 'gateway']);
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
  /** The last few KB the service wrote (stdout and stderr) when started with stdio 'ignore', for error messages. */
  outputTail?: () => string;
}

export interface LaunchOptions {
  root: string;
  services: ServiceName[];
  /** Environment of every child (MONGO_URL, BUS_PREFIX, ...). */
  env: NodeJS.ProcessEnv;
  /** Port of each service = its default + offset (lets tests run beside a dev stack). */
  portOffset?: number;
  /** The gateway's port when set (npm start honours PORT); nothing calls the gateway, so no URL changes. */
  gatewayPort?: number;
  stdio?: 'inherit' | 'ignore' | 'pipe';
  readyTimeoutMs?: number;
  /** Extra node flags of each service process (e.g. --cpu-prof, which NODE_OPTIONS does not allow). */
  nodeArgs?: string[];
  /** Run the compiled build (`dist/<service>/main.js`, `npm run build:services`) instead of the TypeScript through tsx. */
  compiled?: boolean;
  /** Called as each service's process is spawned, before it is ready (progress output; tracking it for a stop). */
  onStarting?: (svc: RunningService) => void;
  /** Called as each service answers its readiness probe, with the milliseconds since it was spawned. */
  onReady?: (svc: RunningService, ms: number) => void;
}

export function serviceUrls(offset = 0): Record<string, string> {
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
    ? join(opts.root, 'dist', SERVICES[name].dir, 'main.js')
    : join(opts.root, 'apps', SERVICES[name].dir, 'src', 'main.ts');
  // 'ignore' still keeps the output's tail: a service that dies before it is ready says why in the error
  const stdio = opts.stdio ?? 'inherit';
  const nodeArgs = [...serviceNodeFlags(), ...(opts.nodeArgs ?? []), ...(opts.compiled ? [] : ['--import', 'tsx'])];
  const env: NodeJS.ProcessEnv = { ...SERVICE_ENV, ...opts.env, ...serviceUrls(opts.portOffset), PORT: String(port) };
  if (!needsDatabase(name)) {
    // the address carries the database credentials: a service that keeps no data does not get them
    delete env.MONGO_URL;
    delete env.MONGO_DATABASE_PREFIX;
  }
  const child = spawn(process.execPath, [...nodeArgs, entry], {
    cwd: opts.root,
    env,
    stdio: stdio === 'ignore' ? ['ignore', 'pipe', 'pipe'] : stdio,
  });
  if (stdio !== 'ignore') return { name, url: `http://127.0.0.1:${port}`, child };
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-OUTPUT_TAIL_CHARS);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { name, url: `http://127.0.0.1:${port}`, child, outputTail: () => tail };
}

const OUTPUT_TAIL_CHARS = 4096;

function exitedError(svc: RunningService): Error {
  const tail = svc.outputTail?.().trim();
  const how = svc.child.signalCode ? `signal ${svc.child.signalCode}` : `code ${svc.child.exitCode}`;
  return new Error(`${svc.name} exited with ${how} before it was ready${tail ? `; its last output:\n${tail}` : ''}`);
}

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

/** Polls /readyz until the service answers 200 (no fixed sleeps). */
export async function waitReady(svc: RunningService, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (svc.child.exitCode !== null || svc.child.signalCode !== null) throw exitedError(svc);
    if (await probeReady(`${svc.url}/readyz`, 1000)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${svc.name} not ready after ${timeoutMs} ms`);
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
        await waitReady(svc, opts.readyTimeoutMs);
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
