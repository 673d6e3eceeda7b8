/**
 * `npm run bench:cold-start`: time from process start to the first 200 of /healthz, for the service run
 * from its TypeScript sources through tsx (`node --import tsx apps/<s>/src/main.ts`, what the image ran
 * before) and compiled (`node dist/<s>/main.js`, `npm run build:services` first). Reports wall time and
 * the CPU the process tree used until then (utime+stime from /proc, esbuild children of tsx included),
 * median and min over REPS runs, alternating the two modes so machine noise hits both alike.
 *
 * Env: REPS (default 7), SERVICES (default gateway,invoice-service,document-service). Needs RabbitMQ and
 * Redis as the tests do; MongoDB is an embedded server in its own process started here.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { serviceNodeFlags } from '@inv/runtime';
import { deleteBrokerObjects, deleteRedisKeys, testEnv, testS3, uniquePrefix } from '@inv/testing';

const REPS = Number(process.env.REPS ?? '7');
const SERVICES = (process.env.SERVICES ?? 'gateway,invoice-service,document-service').split(',');
const root = resolve(__dirname, '../..');
const TICK_MS = 1000 / 100; // USER_HZ

function treeCpuMs(pid: number): number {
  const children = new Map<number, number[]>();
  const cpu = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const text = readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(f[1]);
      cpu.set(Number(d), (Number(f[11]) + Number(f[12])) * TICK_MS);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(d)]);
    } catch {
      // gone
    }
  }
  const walk = (p: number): number => (cpu.get(p) ?? 0) + (children.get(p) ?? []).reduce((n, c) => n + walk(c), 0);
  return walk(pid);
}

const freePort = () =>
  new Promise<number>((ok, fail) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
    s.on('error', fail);
  });

async function coldStart(
  service: string,
  mode: 'tsx' | 'compiled',
  env: Record<string, string>,
): Promise<{ wallMs: number; cpuMs: number }> {
  const port = await freePort();
  // with the services' node flags, as the image and the launcher start them
  const args = [
    ...serviceNodeFlags(),
    ...(mode === 'tsx' ? ['--import', 'tsx', `apps/${service}/src/main.ts`] : [`dist/${service}/main.js`]),
  ];
  const started = process.hrtime.bigint();
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${service} (${mode}) exited with ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) {
        const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
        return { wallMs, cpuMs: treeCpuMs(child.pid!) };
      }
      if (Number(process.hrtime.bigint() - started) / 1e6 > 120_000) throw new Error(`${service} (${mode}) did not answer /healthz`);
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(undefined) : child.once('exit', r)));
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  if (!existsSync(resolve(root, 'dist/gateway/main.js'))) throw new Error('run `npm run build:services` first');
  const prefix = uniquePrefix('cold');
  const mongo = spawn(process.execPath, ['--import', 'tsx', 'libs/embedded-mongo/src/cli.ts'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const uri = await new Promise<string>((ok) => mongo.stdout!.once('data', (b: Buffer) => ok(b.toString().trim())));
  // the services that keep files need an object store from the start (invoice-, document-, export-, inbound-service)
  const s3 = await testS3();
  const env = { ...testEnv(prefix, uri, { ...s3.env, S3_BUCKET: 'cold-start' }), NODE_ENV: 'development' };
  try {
    console.log(`cold start to /healthz, ${REPS} runs each (median / min), node ${process.version}`);
    for (const service of SERVICES) {
      const runs: Record<'tsx' | 'compiled', { wallMs: number; cpuMs: number }[]> = { tsx: [], compiled: [] };
      await coldStart(service, 'compiled', env); // warm the page cache for both
      await coldStart(service, 'tsx', env);
      for (let i = 0; i < REPS; i++) for (const mode of ['tsx', 'compiled'] as const) runs[mode].push(await coldStart(service, mode, env));
      for (const mode of ['tsx', 'compiled'] as const) {
        const w = runs[mode].map((r) => r.wallMs);
        const c = runs[mode].map((r) => r.cpuMs);
        console.log(
          `${service.padEnd(17)} ${mode.padEnd(8)} wall ${median(w).toFixed(0).padStart(5)} ms (min ${Math.min(...w).toFixed(0)})   cpu ${median(c).toFixed(0).padStart(5)} ms (min ${Math.min(...c).toFixed(0)})`,
        );
      }
    }
  } finally {
    mongo.kill('SIGTERM');
    await s3.stop();
    await deleteBrokerObjects(prefix);
    await deleteRedisKeys(prefix);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
