import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { resolve } from 'node:path';
import { deleteBrokerObjects, uniquePrefix } from '@inv/testing';

jest.setTimeout(120_000);

const root = resolve(__dirname, '../../..');

/**
 * What `npm start` runs, started the way its script does. tsx is loaded with `--import` rather than through the tsx
 * CLI, which would run the program in a child process and relay signals to it: when the child's report of a signal
 * took over 30 ms (a loaded machine), the CLI sent it the signal again and then killed it, and Ctrl+C ended with 130.
 */
const START = ['--import', 'tsx', 'apps/all/src/main.ts'];

const portOpen = (port: number) =>
  new Promise<boolean>((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), done(true)));
    socket.once('error', () => done(false));
  });

/** `npm start` (apps/all): what a run leaves behind when it cannot start. */
describe('npm start', () => {
  const prefix = uniquePrefix('start');
  afterAll(() => deleteBrokerObjects(prefix));

  it('stops what it had started when a service cannot start: no maildev is left on its ports', async () => {
    // a port range of its own (other runs share the machine); the ports are checked free before anything starts
    const offset = 30_000 + Math.floor(Math.random() * 15_000);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      SERVICES: 'account,invoice', // invoice-service needs e-mail: maildev starts
      PORT_OFFSET: String(offset),
      BOOTSTRAP_API_KEY: 'not-a-key', // account-service refuses it and exits before it is ready
      BUS_PREFIX: prefix,
      REDIS_PREFIX: `${prefix}:`,
      MONGO_DATABASE_PREFIX: `${prefix.replace(/-/g, '_')}_`,
      LOG_LEVEL: 'silent',
    };
    for (const name of ['MONGO_URL', 'S3_ENDPOINT', 'SMTP_URL', 'PORT']) delete env[name];
    const child = spawn(process.execPath, START, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const code = await new Promise<number | null>((done) => child.once('exit', (c) => done(c)));
    expect(code).toBe(1);
    expect(output).toContain('BOOTSTRAP_API_KEY'); // the reason, from account-service
    expect(output).toMatch(/failed to start: .*account exited/);
    expect(output).toContain('e-mails go to maildev'); // it had started
    expect(await portOpen(1025 + offset)).toBe(false);
    expect(await portOpen(1080 + offset)).toBe(false);
  });

  it('is what npm start runs', () => {
    const { scripts } = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(scripts.start).toBe(`node ${START.join(' ')}`);
  });

  it('stops quietly with exit code 0 on Ctrl+C, which signals every process of its group, even when pressed twice', async () => {
    const offset = 30_000 + Math.floor(Math.random() * 15_000);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      SERVICES: 'account,customer',
      PORT_OFFSET: String(offset),
      BUS_PREFIX: prefix,
      REDIS_PREFIX: `${prefix}:`,
      MONGO_DATABASE_PREFIX: `${prefix.replace(/-/g, '_')}_`,
      LOG_LEVEL: 'silent',
    };
    for (const name of ['MONGO_URL', 'S3_ENDPOINT', 'SMTP_URL', 'PORT', 'BOOTSTRAP_API_KEY']) delete env[name];
    // a process group of its own, as a terminal gives a command
    const child = spawn(process.execPath, START, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    const running = new Promise<void>((done) => {
      const onData = (c: Buffer) => {
        output += c.toString();
        if (output.includes('Invoicing platform is running.')) done();
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
    });
    const exited = new Promise<number | null>((done) => child.once('exit', (c) => done(c)));
    await Promise.race([running, exited]);
    expect(output).toContain('Invoicing platform is running.');
    process.kill(-child.pid!, 'SIGINT'); // what Ctrl+C does
    await new Promise((r) => setTimeout(r, 20)); // two signals sent at once would arrive as one
    try {
      process.kill(-child.pid!, 'SIGINT'); // and again, while it stops
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err; // it had already stopped
    }
    expect(await exited).toBe(0);
    expect(output).not.toMatch(/exited \(code/);
    expect(output).not.toContain('stopping the others');
    expect(await portOpen(3001 + offset)).toBe(false);
  });
});
