/**
 * `npx tsx test/bench/npm-start.bench.ts`: the time from starting `npm start`'s launcher (every service, a data
 * directory of its own, ports free now, a bus and Redis prefix of its own) to its banner. BUSY=N runs N busy loops
 * (`node -e 'for(;;){}'`, killed by pid) beside it; START_FROM=sources starts the services through tsx as before.
 * Prints the time and the last progress lines; stops the launcher with SIGINT and removes what it made.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { freeServicesPortOffset } from '@inv/runtime';
import { deleteBrokerObjects, deleteRedisKeys, uniquePrefix } from '@inv/testing';

async function main() {
  const busy = Number(process.env.BUSY ?? 0);
  const hogs = Array.from({ length: busy }, () => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
  const prefix = uniquePrefix('measure');
  const dataDir = mkdtempSync(resolve(tmpdir(), 'inv-measure-'));
  const offset = await freeServicesPortOffset();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT_OFFSET: String(offset),
    BUS_PREFIX: prefix,
    REDIS_PREFIX: `${prefix}:`,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  };
  for (const n of ['MONGO_URL', 'S3_ENDPOINT', 'SMTP_URL', 'PORT', 'BOOTSTRAP_API_KEY', 'READY_TIMEOUT_S']) delete env[n];
  const started = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/all/src/main.ts'], {
    cwd: resolve(__dirname, '../..'),
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  const result = await new Promise<string>((done) => {
    const on = (c: Buffer) => {
      out += c.toString();
      if (out.includes('Invoicing platform is running.')) done(`banner after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    };
    child.stdout.on('data', on);
    child.stderr.on('data', on);
    child.once('exit', (code) => done(`exited ${code}`));
  });
  for (const h of hogs) h.kill('SIGKILL');
  const waiting = out.split('\n').filter((l) => l.includes('waiting for'));
  console.log(`BUSY=${busy} START_FROM=${process.env.START_FROM ?? 'build'}: ${result}`);
  console.log(waiting.slice(-2).join('\n'));
  if (!result.startsWith('banner')) console.log(out.slice(-3000));
  try {
    process.kill(-child.pid!, 'SIGINT');
  } catch {
    /* gone */
  }
  await new Promise((r) => child.once('exit', r));
  await deleteBrokerObjects(prefix);
  await deleteRedisKeys(`${prefix}:`).catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}
void main();
