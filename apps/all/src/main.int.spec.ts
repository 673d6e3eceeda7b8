import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { resolve } from 'node:path';
import { freeServicesPortOffset, httpStatus } from '@inv/runtime';
import { deleteBrokerObjects, uniquePrefix } from '@inv/testing';

jest.setTimeout(120_000);

const root = resolve(__dirname, '../../..');

/** A data directory of its own for each launcher of these tests (never the repository's .data/), removed afterwards. */
const dataDirs: string[] = [];
const tempDataDir = () => {
  const dir = mkdtempSync(resolve(tmpdir(), 'inv-start-'));
  dataDirs.push(dir);
  return dir;
};
afterAll(() => dataDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

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
    const offset = await freeServicesPortOffset();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      SERVICES: 'account,invoice', // invoice-service needs e-mail: maildev starts
      PORT_OFFSET: String(offset),
      BOOTSTRAP_API_KEY: 'not-a-key', // account-service refuses it and exits before it is ready
      BUS_PREFIX: prefix,
      REDIS_PREFIX: `${prefix}:`,
      MONGO_DATABASE_PREFIX: `${prefix.replace(/-/g, '_')}_`,
      LOG_LEVEL: 'silent',
      DATA_DIR: tempDataDir(),
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

  it('refuses a READY_TIMEOUT_S that is not a number of seconds, in one line', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, SERVICES: 'gateway', READY_TIMEOUT_S: 'soon', DATA_DIR: tempDataDir() };
    const child = spawn(process.execPath, START, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    expect(await new Promise((done) => child.once('exit', done))).toBe(1);
    expect(output.trim()).toBe('[all] failed to start: READY_TIMEOUT_S must be a number of seconds > 0');
  });

  it('is what npm start runs', () => {
    const { scripts } = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    // `exec` makes npm's script shell (dash) become the launcher: see 'through npm start' below
    expect(scripts.start).toBe(`exec node ${START.join(' ')}`);
  });

  it('stops quietly with exit code 0 on Ctrl+C, which signals every process of its group, even when pressed twice', async () => {
    const offset = await freeServicesPortOffset();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      SERVICES: 'account,customer',
      PORT_OFFSET: String(offset),
      BUS_PREFIX: prefix,
      REDIS_PREFIX: `${prefix}:`,
      MONGO_DATABASE_PREFIX: `${prefix.replace(/-/g, '_')}_`,
      LOG_LEVEL: 'silent',
      DATA_DIR: tempDataDir(),
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

/** The launcher in a process group of its own (as a terminal runs a command), its output kept for the assertions. */
function startLauncher(env: NodeJS.ProcessEnv, args: string[] = [], command = [process.execPath, ...START]) {
  const child = spawn(command[0], [...command.slice(1), ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  const waiters: { pattern: RegExp; done: (m: RegExpMatchArray) => void }[] = [];
  const onData = (c: Buffer) => {
    output += c.toString();
    for (const w of [...waiters]) {
      const m = output.match(w.pattern);
      if (!m) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.done(m);
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  // the exit code, or the signal that ended it (a shell reports SIGINT as 130)
  const exited = new Promise<number | NodeJS.Signals | null>((done) => child.once('exit', (c, signal) => done(c ?? signal)));
  /** Resolves with the first match of `pattern` in the output; rejects when the launcher exits or after `timeoutMs`. */
  const waitFor = (pattern: RegExp, timeoutMs = 90_000) =>
    new Promise<RegExpMatchArray>((done, fail) => {
      const m = output.match(pattern);
      if (m) return done(m);
      const timer = setTimeout(() => fail(new Error(`no ${pattern} in ${timeoutMs} ms; output:\n${output}`)), timeoutMs);
      waiters.push({ pattern, done: (match) => (clearTimeout(timer), done(match)) });
      void exited.then((code) => {
        clearTimeout(timer);
        fail(new Error(`the launcher exited (${code}) before ${pattern}; output:\n${output}`));
      });
    });
  const pidOf = async (service: string, again = false) =>
    Number((await waitFor(new RegExp(`starting ${service}${again ? ' again' : ''} \\(pid (\\d+)\\)`)))[1]);
  return { child, exited, waitFor, pidOf, output: () => output, ctrlC: () => process.kill(-child.pid!, 'SIGINT') };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Fault tests on a local run: a service's death does not stop the others (KEEP_GOING=1, RESTART=1). */
describe('npm start with KEEP_GOING / RESTART', () => {
  const prefix = uniquePrefix('keep');
  afterAll(() => deleteBrokerObjects(prefix));

  const launcherEnv = (offset: number, extra: NodeJS.ProcessEnv) => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      SERVICES: 'account,customer',
      PORT_OFFSET: String(offset),
      BUS_PREFIX: prefix,
      REDIS_PREFIX: `${prefix}:`,
      MONGO_DATABASE_PREFIX: `${prefix.replace(/-/g, '_')}_`,
      LOG_LEVEL: 'silent',
      DATA_DIR: tempDataDir(),
      ...extra,
    };
    for (const name of ['MONGO_URL', 'S3_ENDPOINT', 'SMTP_URL', 'PORT', 'BOOTSTRAP_API_KEY', 'KEEP_GOING', 'RESTART'])
      if (!(name in extra)) delete env[name];
    return env;
  };

  it('KEEP_GOING=1: a service killed with SIGKILL is logged, the launcher and the others keep running; Ctrl+C exits 0', async () => {
    const offset = await freeServicesPortOffset(); // below the ephemeral ports, free now
    const run = startLauncher(launcherEnv(offset, { KEEP_GOING: '1' }));
    try {
      await run.waitFor(/Invoicing platform is running\./);
      const account = await run.pidOf('account-service');
      const customer = await run.pidOf('customer-service');
      process.kill(customer, 'SIGKILL');
      await run.waitFor(new RegExp(`customer-service \\(pid ${customer}\\) died: signal SIGKILL; still running: account-service`), 10_000);
      await new Promise((r) => setTimeout(r, 2500)); // longer than a restart's first backoff: none comes
      expect(run.child.exitCode).toBeNull();
      expect(alive(account)).toBe(true);
      expect(await httpStatus(`http://127.0.0.1:${3001 + offset}/readyz`)).toBe(200);
      expect(await portOpen(3002 + offset)).toBe(false);
      expect(run.output()).not.toContain('starting customer-service again');
      expect(run.output()).not.toContain('stopping the others');
      run.ctrlC();
      expect(await run.exited).toBe(0);
      expect(alive(account)).toBe(false);
    } finally {
      if (run.child.exitCode === null && run.child.signalCode === null) process.kill(-run.child.pid!, 'SIGKILL');
    }
  });

  it('--restart: a service killed with SIGKILL is started again after a backoff and is ready; Ctrl+C exits 0', async () => {
    const offset = await freeServicesPortOffset(); // below the ephemeral ports, free now
    const run = startLauncher(launcherEnv(offset, {}), ['--restart']);
    try {
      await run.waitFor(/Invoicing platform is running\./);
      const account = await run.pidOf('account-service');
      const customer = await run.pidOf('customer-service');
      process.kill(customer, 'SIGKILL');
      await run.waitFor(/restarting customer-service in 1\.0 s \(restart 1 of at most 5 in a row\)/, 10_000);
      const restarted = await run.pidOf('customer-service', true);
      expect(restarted).not.toBe(customer);
      await run.waitFor(/customer-service ready in [\d.]+ s \(restarted\)/, 60_000);
      expect(alive(restarted)).toBe(true);
      expect(alive(account)).toBe(true);
      expect(await httpStatus(`http://127.0.0.1:${3002 + offset}/readyz`)).toBe(200);
      run.ctrlC();
      expect(await run.exited).toBe(0);
      expect(alive(restarted)).toBe(false);
      expect(await portOpen(3002 + offset)).toBe(false);
    } finally {
      if (run.child.exitCode === null && run.child.signalCode === null) process.kill(-run.child.pid!, 'SIGKILL');
    }
  });

  /**
   * npm runs the script through `sh -c`. On Ctrl+C, dash (Debian's sh) gets SIGINT too and, once the launcher has exited
   * 0, kills itself with SIGINT; npm sees its child killed by SIGINT, sends itself SIGINT and the shell reports 130.
   * With `exec node ...` the launcher is npm's child and npm exits with its code, 0.
   */
  it('through npm start: Ctrl+C to the process group exits 0', async () => {
    const offset = await freeServicesPortOffset();
    const run = startLauncher(launcherEnv(offset, {}), [], ['npm', 'start']);
    try {
      await run.waitFor(/Invoicing platform is running\./);
      run.ctrlC();
      expect(await run.exited).toBe(0);
    } finally {
      if (run.child.exitCode === null && run.child.signalCode === null) process.kill(-run.child.pid!, 'SIGKILL');
    }
  });
});

/** The data directory: what a run keeps for the next one (DATA_DIR), --fresh, the lock. */
describe('npm start keeps its data', () => {
  const prefix = uniquePrefix('data');
  afterAll(() => deleteBrokerObjects(prefix));

  it('a restart keeps the data and the printed key; a second launcher on it is refused; --fresh empties it', async () => {
    const offset = await freeServicesPortOffset();
    const dataDir = tempDataDir();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      SERVICES: 'gateway,account,customer',
      PORT_OFFSET: String(offset),
      BUS_PREFIX: prefix,
      REDIS_PREFIX: `${prefix}:`,
      MONGO_DATABASE_PREFIX: `${prefix.replace(/-/g, '_')}_`,
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
    };
    for (const name of ['MONGO_URL', 'S3_ENDPOINT', 'SMTP_URL', 'PORT', 'BOOTSTRAP_API_KEY', 'IDENTITY_SIGNING_KEYS', 'FRESH'])
      delete env[name];
    const api = `http://127.0.0.1:${8080 + offset}/api/v1`;
    const call = (key: string, method: string, path: string, body?: unknown) =>
      fetch(`${api}${path}`, {
        method,
        headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
    const run = async (args: string[], during: (key: string, output: string) => Promise<void>) => {
      const launcher = startLauncher(env, args);
      try {
        const key = (await launcher.waitFor(/API key: +(ak_live_[0-9a-f]+)/, 110_000))[1]!;
        await launcher.waitFor(/ {2}Try: /, 10_000); // the banner's last line: the Data line is out
        expect(launcher.output()).toContain(`Data:      ${dataDir}`);
        await during(key, launcher.output());
        launcher.ctrlC();
        expect(await launcher.exited).toBe(0);
        expect(existsSync(resolve(dataDir, 'LOCK'))).toBe(false);
        expect(existsSync(resolve(root, 'tmp', `start-${launcher.child.pid}`))).toBe(false); // its compiled services
        return key;
      } finally {
        if (launcher.child.exitCode === null && launcher.child.signalCode === null) process.kill(-launcher.child.pid!, 'SIGKILL');
      }
    };

    let customerId = '';
    const key = await run([], async (k, output) => {
      expect(output).toContain('generated now');
      expect(statSync(resolve(dataDir, 'bootstrap-key')).mode & 0o777).toBe(0o600);
      const created = await call(k, 'POST', '/customer/', { organization_name: 'Beispiel AG', language: 'German' });
      expect(created.status).toBe(201);
      customerId = ((await created.json()) as { id: string }).id;
      // a second launcher on the same data, on other ports: refused at once, naming the directory; this one runs on
      const second = startLauncher({ ...env, PORT_OFFSET: String(offset + 1) });
      expect(await second.exited).toBe(1);
      expect(second.output()).toContain(`the data directory ${dataDir} is in use by another launcher`);
      expect((await call(k, 'GET', `/customer/${customerId}`)).status).toBe(200);
    });
    const again = await run([], async (k, output) => {
      expect(output).toContain('generated earlier');
      const read = await call(k, 'GET', `/customer/${customerId}`);
      expect(read.status).toBe(200);
      expect(((await read.json()) as { organization_name: string }).organization_name).toBe('Beispiel AG');
    });
    expect(again).toBe(key);
    const fresh = await run(['--fresh'], async (k) => {
      expect((await call(k, 'GET', `/customer/${customerId}`)).status).toBe(404);
    });
    expect(fresh).not.toBe(key);
  }, 400_000);
  it('stops on data the embedded MongoDB cannot read with its message, and deletes nothing', async () => {
    const dataDir = tempDataDir();
    mkdirSync(resolve(dataDir, 'mongo'));
    writeFileSync(resolve(dataDir, 'mongo', 'FORMAT'), 'not a version\n');
    writeFileSync(resolve(dataDir, 'bootstrap-key'), 'ak_live_0123456789abcdef0123456789abcdef\n');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      SERVICES: 'account',
      PORT_OFFSET: String(await freeServicesPortOffset()),
      DATA_DIR: dataDir,
    };
    for (const name of ['MONGO_URL', 'S3_ENDPOINT', 'FRESH']) delete env[name];
    const run = startLauncher(env);
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain(`[all] failed to start: The embedded MongoDB's data file ${resolve(dataDir, 'mongo', 'FORMAT')}`);
    expect(run.output()).not.toMatch(/\n\s+at /); // one line, no stack
    expect(readFileSync(resolve(dataDir, 'mongo', 'FORMAT'), 'utf8')).toBe('not a version\n');
    expect(existsSync(resolve(dataDir, 'bootstrap-key'))).toBe(true);
    expect(existsSync(resolve(dataDir, 'LOCK'))).toBe(false);
    expect(existsSync(resolve(root, 'tmp', `start-${run.child.pid}`))).toBe(false); // the build it had begun
  });
});
