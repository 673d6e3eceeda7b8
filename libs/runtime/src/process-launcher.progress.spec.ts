import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnService, stopService, waitReady, type RunningService } from './process-launcher';

/**
 * A stand-in for the compiled gateway whose start is one of: steps reported every 200 ms for 2 s (idle between them),
 * CPU burnt for 2 s (loading modules), one step and then nothing; then it listens and answers /readyz.
 */
const STAND_IN = `
const send = (step) => process.send && process.send({ type: 'inv:startup', step });
const listen = () => require('node:http').createServer((q, s) => s.end('{"status":"ready"}')).listen(Number(process.env.PORT), '127.0.0.1');
const mode = process.env.MODE;
if (mode === 'steps') {
  let n = 0;
  const t = setInterval(() => { send('step ' + ++n); if (n === 10) { clearInterval(t); listen(); } }, 200);
} else if (mode === 'cpu') {
  const end = Date.now() + 2000;
  const burn = () => { const until = Date.now() + 50; while (Date.now() < until); if (Date.now() < end) setImmediate(burn); else listen(); };
  burn();
} else {
  console.error('warming up\\nconnecting to the broker at amqp://127.0.0.1:1');
  send('connecting to RabbitMQ');
  setInterval(() => undefined, 1000);
}`;

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

describe('waitReady: as long as a starting service makes progress', () => {
  let root: string;
  const started: RunningService[] = [];
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'launcher-progress-'));
    mkdirSync(join(root, 'dist', 'gateway'), { recursive: true });
    writeFileSync(join(root, 'dist', 'gateway', 'main.js'), STAND_IN);
  });
  afterAll(async () => {
    await Promise.all(started.map((svc) => stopService(svc, 1000)));
    rmSync(root, { recursive: true, force: true });
  });

  const start = async (mode: string, onProgress?: (step: string) => void) => {
    const svc = spawnService('gateway', {
      root,
      services: ['gateway'],
      env: { ...process.env, MODE: mode },
      compiled: true,
      gatewayPort: await freePort(),
      stdio: 'ignore',
      onProgress: (_svc, step) => onProgress?.(step),
    });
    started.push(svc);
    return svc;
  };

  it('waits past the stall limit for a service that reports its steps, and passes each step on', async () => {
    const steps: string[] = [];
    const svc = await start('steps', (step) => steps.push(step));
    await expect(waitReady(svc, Infinity, { stallMs: 1000 })).resolves.toBeUndefined();
    expect(steps.slice(0, 3)).toEqual(['step 1', 'step 2', 'step 3']);
    expect(svc.startup.step).toBe('step 10');
  });

  it('waits past the stall limit for a service that works (uses CPU) without saying so', async () => {
    if (process.platform !== 'linux') return; // CPU time is read from /proc
    const svc = await start('cpu');
    await expect(waitReady(svc, Infinity, { stallMs: 1000 })).resolves.toBeUndefined();
  });

  it('gives up on a service that makes no progress, with its last step and its last output', async () => {
    const svc = await start('stuck');
    const error = await waitReady(svc, Infinity, { stallMs: 1500 }).catch((err: Error) => err);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/^gateway not ready: no progress for \d+ s \(last step: connecting to RabbitMQ\)/);
    expect((error as Error).message).toContain('its last output:\nwarming up\nconnecting to the broker at amqp://127.0.0.1:1');
  });

  it('holds a hard limit when one is given, progress or not', async () => {
    const svc = await start('steps');
    await expect(waitReady(svc, 700, { stallMs: 10_000 })).rejects.toThrow(/^gateway not ready after 700 ms \(last step: step \d+\)/);
  });
});
