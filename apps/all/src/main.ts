import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { resolve } from 'node:path';
import { startEmbeddedMongo } from '@inv/embedded-mongo';
import { createObjectStore, startEmbeddedS3 } from '@inv/objects';
import { assertPortsFree, launchServices, parseServiceList, SERVICES, stopServices, type RunningService } from '@inv/runtime';
import { startViesSimulator } from '@inv/vies-simulator';

/** A reason not to start that the caller can fix. */
class StartError extends Error {}

/**
 * Runs a set of services as separate processes on this machine (SERVICES=all, or a list such as
 * "gateway,invoice,document"): one command for the whole system. Starts one embedded MongoDB for all of
 * them when MONGO_URL is unset (and the VIES simulator when VIES_URL is unset: services never start a
 * development stand-in themselves), creates a demo API key when BOOTSTRAP_API_KEY is unset, and a random
 * identity-token key for the run when IDENTITY_SIGNING_KEYS is unset.
 */
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
  const services = parseServiceList(process.env.SERVICES ?? 'all');
  const env: NodeJS.ProcessEnv = { ...process.env };
  // PORT_OFFSET shifts every service port (two copies side by side); every port is checked before anything starts.
  const portOffset = Number(env.PORT_OFFSET ?? 0);
  if (!Number.isInteger(portOffset) || portOffset < 0 || portOffset > 50_000)
    throw new StartError('PORT_OFFSET must be an integer 0..50000');
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
  let running: RunningService[] = [];
  /** Stops whatever this run has started so far: also when the start fails half-way (maildev is a process of its own). */
  const stopAll = async () => {
    await stopServices(running);
    await stopMongo();
    await stopS3();
    await stopVies();
    await stopMail().catch(() => undefined);
  };
  try {
    if (!env.MONGO_URL) {
      if (env.NODE_ENV === 'production') throw new Error('set MONGO_URL: the embedded MongoDB server is a development tool');
      const mongo = await startEmbeddedMongo({ port: Number(env.EMBEDDED_MONGO_PORT ?? 0) });
      env.MONGO_URL = mongo.uri;
      stopMongo = mongo.stop;
      console.warn(`[all] MONGO_URL is unset: embedded development MongoDB at ${mongo.uri} (data lives in memory)`);
    }
    // One embedded object store for all services (documents are written by one and exported by another).
    if (!env.S3_ENDPOINT) {
      if (env.NODE_ENV === 'production') throw new Error('set S3_ENDPOINT: the embedded S3 server is a development tool');
      const s3 = await startEmbeddedS3({ port: Number(env.EMBEDDED_S3_PORT ?? 0) });
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
      console.warn(`[all] S3_ENDPOINT is unset: embedded development S3 server at ${s3.endpoint} (files live in a temporary directory)`);
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
      env.IDENTITY_SIGNING_KEYS = randomBytes(32).toString('hex');
    }
    // Local runs keep classic queues: a development broker holds the classic `inv.*` queues of earlier runs, and a
    // queue's type cannot change on redeclaration. Production and the tests declare quorum queues.
    env.BUS_QUEUE_TYPE ??= 'classic';
    const generatedKey = !env.BOOTSTRAP_API_KEY;
    env.BOOTSTRAP_API_KEY ??= `ak_live_${randomBytes(16).toString('hex')}`;

    // Ctrl+C sends SIGINT to the whole process group: every service stops on its own while this process stops
    // them too. Once a shutdown has begun, a service's exit is expected: no message, no second shutdown, exit 0.
    // A second signal (Ctrl+C pressed again, or one relayed by a wrapper such as the tsx CLI) joins the shutdown under
    // way, which is bounded (stopService: SIGKILL after 10 s); without a handler, Node's default for the signal would
    // end this process in the middle of it.
    let stopping: Promise<void> | undefined;
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

    // invitation links in e-mails point at the web app behind this gateway
    env.APP_URL ??= `http://127.0.0.1:${gatewayPort ?? SERVICES.gateway.port + portOffset}/app`;
    running = await launchServices({ root, services, env, portOffset, gatewayPort, stdio: 'inherit', readyTimeoutMs: 90_000 });
    for (const svc of running) {
      svc.child.once('exit', (code, signal) => {
        if (stopping) return;
        console.error(`[all] ${svc.name} exited (code ${code}, signal ${signal}); stopping the others`);
        void shutdown(1);
      });
    }
    const gateway = running.find((s) => s.name === 'gateway');
    console.log('');
    console.log('  Invoicing platform is running.');
    if (gateway) console.log(`  Gateway:   ${gateway.url}/api/v1   (docs: ${gateway.url}/api/v1/docs)`);
    if (gateway)
      console.log(
        `  Web app:   ${gateway.url}/app/   (account settings; the demo owner owner@demo.example sets a password through the invitation in the e-mail inbox)`,
      );
    if (mailPorts) console.log(`  E-mail:    http://127.0.0.1:${mailPorts.web}   (maildev inbox; SMTP 127.0.0.1:${mailPorts.smtp})`);
    console.log(
      `  API key:   ${env.BOOTSTRAP_API_KEY}${generatedKey ? '   (generated for this run; set BOOTSTRAP_API_KEY to keep one)' : ''}`,
    );
    console.log(`  Try:       curl -H "X-API-Key: ${env.BOOTSTRAP_API_KEY}" ${gateway?.url ?? 'http://127.0.0.1:8080'}/api/v1/invoice/`);
    console.log('');
  } catch (err) {
    await stopAll().catch(() => undefined);
    throw err;
  }
}

main().catch((err: unknown) => {
  // a mistake of the caller (a taken port, a bad setting) in one line; anything else with its stack
  console.error('[all] failed to start:', err instanceof StartError ? err.message : err);
  process.exit(1);
});
