import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { resolve } from 'node:path';
import { EmbeddedMongoDataError, startEmbeddedMongo } from '@inv/embedded-mongo';
import { createObjectStore, startEmbeddedS3 } from '@inv/objects';
import {
  assertPortsFree,
  launchServices,
  needsDatabase,
  parseServiceList,
  processCpuMs,
  SERVICES,
  spawnService,
  stopService,
  stopServices,
  waitReady,
  type LaunchOptions,
  type RunningService,
  type ServiceName,
} from '@inv/runtime';
import { startViesSimulator } from '@inv/vies-simulator';
import { buildServices } from './build';
import { dataDirPath, keptSecret, newApiKey, newSigningKey, openDataDir } from './data-dir';
import { freshStart, RESTART_LIMIT, RESTART_STABLE_MS, restartBackoffMs, StartError, supervision } from './supervision';

/**
 * Runs a set of services as separate processes on this machine (SERVICES=all, or a list such as
 * "gateway,invoice,document"): one command for the whole system. Starts one embedded MongoDB for all of
 * them when MONGO_URL is unset (and the VIES simulator when VIES_URL is unset: services never start a
 * development stand-in themselves), creates a demo API key when BOOTSTRAP_API_KEY is unset, and a random
 * identity-token key when IDENTITY_SIGNING_KEYS is unset. The embedded stores and both generated keys live in the data
 * directory (DATA_DIR, default .data/), so a later run has the same data and the same key; --fresh / FRESH=1 empties it.
 */
const label = (name: ServiceName) => SERVICES[name].dir;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const portOf = (svc: RunningService) => new URL(svc.url).port;

/** Resolves once something accepts TCP connections on 127.0.0.1:port. */
async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`maildev did not open port ${port}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function main() {
  const root = resolve(__dirname, '../../..');
  const launchStarted = Date.now();
  const services = parseServiceList(process.env.SERVICES ?? 'all');
  const env: NodeJS.ProcessEnv = { ...process.env };
  const mode = supervision(env, process.argv.slice(2));
  const fresh = freshStart(env, process.argv.slice(2));
  // the data directory first: a second launcher on the same data is refused before anything else, whatever its ports
  const dataPath = dataDirPath(root, env);
  if (fresh) console.warn(`[all] --fresh: deleting the data in ${dataPath}`);
  const data = openDataDir(dataPath, { fresh });
  // PORT_OFFSET shifts every service port (two copies side by side); every port is checked before anything starts.
  const portOffset = Number(env.PORT_OFFSET ?? 0);
  if (!Number.isInteger(portOffset) || portOffset < 0 || portOffset > 50_000)
    throw new StartError('PORT_OFFSET must be an integer 0..50000');
  // no fixed deadline for a start: a service is waited for as long as it makes progress (waitReady); READY_TIMEOUT_S sets one
  const readyTimeoutS = env.READY_TIMEOUT_S ? Number(env.READY_TIMEOUT_S) : undefined;
  if (readyTimeoutS !== undefined && !(Number.isFinite(readyTimeoutS) && readyTimeoutS > 0))
    throw new StartError('READY_TIMEOUT_S must be a number of seconds > 0');
  const gatewayPort = env.PORT ? Number(env.PORT) : undefined; // PORT moves only the gateway
  if (gatewayPort !== undefined && !(Number.isInteger(gatewayPort) && gatewayPort > 0 && gatewayPort < 65_536))
    throw new StartError('PORT must be an integer 1..65535');
  // maildev stands in for SMTP when SMTP_URL is unset: SMTP on 1025, its web inbox on 1080 (+ PORT_OFFSET)
  const mailPorts = !env.SMTP_URL && services.includes('invoice') ? { smtp: 1025 + portOffset, web: 1080 + portOffset } : undefined;
  await assertPortsFree([
    ...services.map((s) => (s === 'gateway' && gatewayPort ? gatewayPort : SERVICES[s].port + portOffset)),
    ...(mailPorts ? [mailPorts.smtp, mailPorts.web] : []),
  ]).catch((err: Error) => {
    throw new StartError(`${err.message} (is the platform already running? PORT_OFFSET=10000 npm start runs a second copy beside it)`);
  });
  let stopMongo = async () => undefined as void;
  let stopS3 = async () => undefined as void;
  let stopVies = async () => undefined as void;
  let stopMail = async () => undefined as void;
  let removeBuild = () => undefined as void;
  /** The build under way: a start that fails meanwhile waits for it before removing its directory. */
  let building: Promise<unknown> = Promise.resolve();
  /** Every service process of this run, filled as each is spawned (a Ctrl+C during the start stops them too). */
  const running: RunningService[] = [];
  const restartTimers = new Set<NodeJS.Timeout>();
  let stopped: Promise<void> | undefined;
  /**
   * Stops whatever this run has started so far: also when the start fails half-way (maildev is a process of its own).
   * Once only: a failed start and a Ctrl+C can both ask for it.
   */
  const stopAll = () =>
    (stopped ??= (async () => {
      for (const timer of restartTimers) clearTimeout(timer);
      await stopServices(running);
      await stopMongo();
      await stopS3();
      await stopVies();
      await stopMail().catch(() => undefined);
      await building;
      removeBuild();
      data.release();
    })());
  let stopping: Promise<void> | undefined;
  // Ctrl+C sends SIGINT to the whole process group: every service stops on its own while this process stops
  // them too. Once a shutdown has begun, a service's exit is expected: no message, no second shutdown, exit 0.
  // A second signal (Ctrl+C pressed again, or one relayed by a wrapper such as the tsx CLI) joins the shutdown under
  // way, which is bounded (stopService: SIGKILL after 10 s); without a handler, Node's default for the signal would
  // end this process in the middle of it. Installed before anything starts: a Ctrl+C during the start stops what has
  // started so far and exits 0 as well.
  const shutdown = (code: number) =>
    (stopping ??= stopAll().then(
      () => process.exit(code),
      (err: unknown) => {
        console.error('[all] stopping failed:', err);
        process.exit(1);
      },
    ));
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  try {
    // The services start from bundles compiled now, as the production image runs them (faster, less memory than tsx);
    // START_FROM=sources runs the TypeScript through tsx, and so does a run whose build fails.
    const fromSources = (env.START_FROM ?? '').trim() === 'sources';
    if (!['', 'sources', 'build'].includes((env.START_FROM ?? '').trim())) throw new StartError('START_FROM must be build or sources');
    const build: Promise<string | undefined> | undefined = fromSources
      ? undefined
      : buildServices(root).then(
          (b) => ((removeBuild = b.remove), b.dir),
          (err: Error) => {
            console.warn(`[all] ${err.message}\n[all] the services start from their TypeScript sources (tsx)`);
            return undefined;
          },
        );
    building = build ?? building;
    // only for services that keep data (document-, vat-service and the gateway do not)
    if (!env.MONGO_URL && services.some(needsDatabase)) {
      if (env.NODE_ENV === 'production') throw new Error('set MONGO_URL: the embedded MongoDB server is a development tool');
      const mongo = await startEmbeddedMongo({ port: Number(env.EMBEDDED_MONGO_PORT ?? 0), dataDir: data.mongo });
      env.MONGO_URL = mongo.uri;
      stopMongo = mongo.stop;
      console.warn(`[all] MONGO_URL is unset: embedded development MongoDB at ${mongo.uri} (data in ${data.mongo})`);
    }
    // One embedded object store for all services (documents are written by one and exported by another).
    if (!env.S3_ENDPOINT) {
      if (env.NODE_ENV === 'production') throw new Error('set S3_ENDPOINT: the embedded S3 server is a development tool');
      const s3 = await startEmbeddedS3({ port: Number(env.EMBEDDED_S3_PORT ?? 0), directory: data.objects });
      Object.assign(env, { S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey });
      // created once here, so the services starting together do not race to create it
      await createObjectStore({
        endpoint: s3.endpoint,
        accessKey: s3.accessKey,
        secretKey: s3.secretKey,
        bucket: env.S3_BUCKET ?? 'invoicing-documents',
        presignTtlSeconds: 60,
      }).ensureBucket();
      stopS3 = s3.stop;
      console.warn(`[all] S3_ENDPOINT is unset: embedded development S3 server at ${s3.endpoint} (files in ${data.objects})`);
    }
    // The VIES simulator stands in for the EU service when VIES_URL is unset; its answers are never real.
    if (!env.VIES_URL && services.includes('vat')) {
      if (env.NODE_ENV === 'production') throw new Error('set VIES_URL: the VIES simulator is a development tool');
      const vies = await startViesSimulator();
      env.VIES_URL = vies.url;
      stopVies = vies.stop;
      console.warn(
        `[all] VIES_URL is unset: VAT IDs are checked against the VIES SIMULATOR at ${vies.url} (simulated answers, never real VIES answers)`,
      );
    }
    if (mailPorts) {
      if (env.NODE_ENV === 'production') throw new Error('set SMTP_URL: maildev is a development tool');
      // maildev runs as its own process: its library entry installs signal handlers that exit this one.
      const maildev = spawn(
        process.execPath,
        [
          require.resolve('maildev/bin/maildev'),
          '--smtp',
          String(mailPorts.smtp),
          '--web',
          String(mailPorts.web),
          '--ip',
          '127.0.0.1',
          // kept with the data: e-mails sent before a Ctrl+C (the demo owner's invitation) are in the inbox after it
          '--mail-directory',
          data.mail,
          '--silent',
        ],
        { stdio: 'ignore' },
      );
      stopMail = async () => void maildev.kill('SIGTERM');
      await waitForPort(mailPorts.smtp, 20_000);
      env.SMTP_URL = `smtp://127.0.0.1:${mailPorts.smtp}`;
      console.warn(
        `[all] SMTP_URL is unset: e-mails go to maildev (SMTP 127.0.0.1:${mailPorts.smtp}, inbox http://127.0.0.1:${mailPorts.web})`,
      );
    }
    // One HMAC key for this run, shared by the gateway (signs identity tokens) and every service (verifies).
    if (!env.IDENTITY_SIGNING_KEYS) {
      if (env.NODE_ENV === 'production')
        throw new Error('set IDENTITY_SIGNING_KEYS: production keys come from a Secret, never generated per run');
      // kept with the data: sign-in sessions and invitation links of an earlier run stay valid
      env.IDENTITY_SIGNING_KEYS = keptSecret(data.path, 'identity-key', newSigningKey).value;
    }
    // Local runs keep classic queues: a development broker holds the classic `inv.*` queues of earlier runs, and a
    // queue's type cannot change on redeclaration. Production and the tests declare quorum queues.
    env.BUS_QUEUE_TYPE ??= 'classic';
    // generated once and kept with the data (mode 0600): the key the first run printed works in every later run
    const keptKey = env.BOOTSTRAP_API_KEY ? undefined : keptSecret(data.path, 'bootstrap-key', newApiKey);
    env.BOOTSTRAP_API_KEY ??= keptKey!.value;

    // invitation links in e-mails point at the web app behind this gateway
    env.APP_URL ??= `http://127.0.0.1:${gatewayPort ?? SERVICES.gateway.port + portOffset}/app`;
    /** When each service was last ready (the progress line lists the others; a restart series ends after a stable run). */
    const readyAt = new Map<ServiceName, number>();
    /** Restarts in a row of each service (RESTART). */
    const restarts = new Map<ServiceName, number>();
    let launched = false;
    /** Exits of services that were ready before the others were: handled once the platform is up. */
    const early: (() => void)[] = [];
    const distDir = await build;
    // the conformance kit next to the clone, where inbound-service's sources find it (a bundle sits elsewhere)
    if (distDir) env.INBOUND_CONFORMANCE_DIR ??= resolve(root, '../shared/conformance');
    const launchOptions: LaunchOptions = {
      root,
      compiled: distDir !== undefined,
      distDir,
      services,
      env,
      portOffset,
      gatewayPort,
      stdio: 'inherit',
      readyTimeoutMs: readyTimeoutS === undefined ? Infinity : readyTimeoutS * 1000,
      onProgress: (svc, step) => {
        if (!readyAt.has(svc.name)) console.log(`[all] ${label(svc.name)}: ${step}`);
      },
      onStarting: (svc) => {
        running.push(svc);
        watch(svc);
        console.log(`[all] starting ${label(svc.name)} (pid ${svc.child.pid})… waiting for /readyz on :${portOf(svc)}`);
      },
      onReady: (svc, ms) => {
        readyAt.set(svc.name, Date.now());
        console.log(`[all] ${label(svc.name)} ready in ${seconds(ms)}`);
      },
    };

    /** What happens when a service's process exits: by the mode, and nothing once a shutdown has begun. */
    const watch = (svc: RunningService) => {
      svc.child.once('exit', (code, signal) => {
        const onExit = () => {
          if (stopping || !running.includes(svc)) return; // a restarted service replaced it
          if (mode === 'stop') {
            console.error(`[all] ${svc.name} exited (code ${code}, signal ${signal}); stopping the others`);
            void shutdown(1);
            return;
          }
          const how = signal ? `signal ${signal}` : `code ${code}`;
          const alive = running.filter((s) => s !== svc && s.child.exitCode === null && s.child.signalCode === null);
          console.error(
            `[all] ${label(svc.name)} (pid ${svc.child.pid}) died: ${how}; still running: ${alive.map((s) => label(s.name)).join(', ') || 'none'}`,
          );
          if (mode === 'restart') scheduleRestart(svc);
        };
        if (launched) onExit();
        else early.push(onExit); // launchServices reports a service that dies before it is ready
      });
    };

    const scheduleRestart = (svc: RunningService) => {
      const ready = readyAt.get(svc.name);
      if (ready !== undefined && Date.now() - ready >= RESTART_STABLE_MS) restarts.set(svc.name, 0);
      readyAt.delete(svc.name);
      const attempt = (restarts.get(svc.name) ?? 0) + 1;
      restarts.set(svc.name, attempt);
      if (attempt > RESTART_LIMIT) {
        console.error(`[all] ${label(svc.name)} died ${RESTART_LIMIT + 1} times in a row: not restarting it (Ctrl+C stops the rest)`);
        return;
      }
      const backoff = restartBackoffMs(attempt);
      console.error(`[all] restarting ${label(svc.name)} in ${seconds(backoff)} (restart ${attempt} of at most ${RESTART_LIMIT} in a row)`);
      const timer = setTimeout(() => {
        restartTimers.delete(timer);
        if (stopping) return;
        const next = spawnService(svc.name, launchOptions);
        running[running.indexOf(svc)] = next;
        watch(next);
        console.log(`[all] starting ${label(next.name)} again (pid ${next.child.pid})… waiting for /readyz on :${portOf(next)}`);
        const started = Date.now();
        waitReady(next, launchOptions.readyTimeoutMs, { stallMs: launchOptions.stallMs }).then(
          () => {
            if (stopping || next.child.exitCode !== null || next.child.signalCode !== null) return;
            readyAt.set(next.name, Date.now());
            console.log(`[all] ${label(next.name)} ready in ${seconds(Date.now() - started)} (restarted)`);
          },
          (err: Error) => {
            if (stopping || next.child.exitCode !== null || next.child.signalCode !== null) return; // its exit is handled
            console.error(`[all] ${err.message}: stopping it`); // its exit then counts as the next failure
            void stopService(next);
          },
        );
      }, backoff);
      restartTimers.add(timer);
    };

    // Progress while the services start: which ones the platform still waits for, each with what it last said it does
    // (before its first step it is loading its code) and the CPU it has used.
    const waiting = setInterval(() => {
      const pending = running
        .filter((s) => !readyAt.has(s.name))
        .map((s) => {
          const cpu = processCpuMs(s.child.pid);
          return `${label(s.name)} (${s.startup.step ?? 'loading its code'}${cpu === undefined ? '' : `, ${seconds(cpu)} CPU`})`;
        });
      if (pending.length) console.log(`[all] ${seconds(Date.now() - launchStarted)}: waiting for ${pending.join(', ')}`);
    }, 15_000);
    try {
      await launchServices(launchOptions);
    } finally {
      clearInterval(waiting);
    }
    launched = true;
    for (const onExit of early.splice(0)) onExit();
    if (stopping) return;
    console.log(`[all] ${running.length} service(s) ready in ${seconds(Date.now() - launchStarted)}`);
    if (mode === 'keep-going')
      console.warn('[all] KEEP_GOING: a service that exits is logged and the others keep running; Ctrl+C stops everything');
    if (mode === 'restart')
      console.warn(
        `[all] RESTART: a service that exits is started again after 1 s, 2 s, 4 s, ... (at most ${RESTART_LIMIT} in a row); Ctrl+C stops everything`,
      );
    const gateway = running.find((s) => s.name === 'gateway');
    console.log('');
    console.log('  Invoicing platform is running.');
    if (gateway) console.log(`  Gateway:   ${gateway.url}/api/v1   (docs: ${gateway.url}/api/v1/docs)`);
    if (gateway && running.some((s) => s.name === 'web'))
      console.log(
        `  Dashboard: ${gateway.url}/app/   (the demo owner owner@demo.example sets a password through the invitation in the e-mail inbox)`,
      );
    if (mailPorts) console.log(`  E-mail:    http://127.0.0.1:${mailPorts.web}   (maildev inbox; SMTP 127.0.0.1:${mailPorts.smtp})`);
    const keyNote = keptKey ? `   (${keptKey.generated ? 'generated now' : 'generated earlier'}, kept in ${data.path}/bootstrap-key)` : '';
    console.log(`  API key:   ${env.BOOTSTRAP_API_KEY}${keyNote}`);
    console.log(`  Data:      ${data.path}   (kept between runs; npm start -- --fresh starts empty)`);
    console.log(`  Try:       curl -H "X-API-Key: ${env.BOOTSTRAP_API_KEY}" ${gateway?.url ?? 'http://127.0.0.1:8080'}/api/v1/invoice/`);
    console.log('');
  } catch (err) {
    // a Ctrl+C during the start: the services it stops fail the start, which is no error; the shutdown exits 0
    if (stopping) return void (await stopping);
    await stopAll().catch(() => undefined);
    throw err;
  }
}

main().catch((err: unknown) => {
  // a mistake of the caller (a taken port, a bad setting, data the embedded MongoDB cannot read: its message names the
  // file and what to do, and nothing is deleted) in one line; anything else with its stack
  const plain = err instanceof StartError || err instanceof EmbeddedMongoDataError;
  console.error('[all] failed to start:', plain ? (err as Error).message : err);
  process.exit(1);
});
