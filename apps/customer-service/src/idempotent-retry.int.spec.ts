import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { startEmbeddedMongo } from '@inv/embedded-mongo';
import { freeServicesPortOffset, launchServices, stopServices, type RunningService } from '@inv/runtime';
import {
  commitKillSwitch,
  deleteBrokerObjects,
  deleteRedisKeys,
  identityHeaders,
  serviceCaller,
  testEnv,
  uniquePrefix,
  type CommitKillSwitch,
} from '@inv/testing';

jest.setTimeout(240_000);

/**
 * The documented retry path for customer-service's creations: a POST sent with an Idempotency-Key whose service dies
 * right after its commit (the gateway answers 504 and forgets its copy) and that the client sends again with the same
 * key. customer-service runs as its own process behind a relay to MongoDB that kills it (SIGKILL) the moment its
 * commit has gone out; after a restart the retry answers the first result and nothing exists twice.
 */
describe('idempotent retries across a crash between commit and answer (customer-service)', () => {
  const prefix = uniquePrefix('idemcust');
  const company = 'cmp_idemcust';
  let portOffset = 0;
  let stopMongo: () => Promise<void>;
  let relay: CommitKillSwitch;
  let env: NodeJS.ProcessEnv;
  let running: RunningService[] = [];
  let base = '';
  const call = serviceCaller(() => base, company);

  const launch = async () => {
    running = await launchServices({
      root: resolve(__dirname, '../../..'),
      services: ['customer'],
      env,
      portOffset,
      stdio: 'ignore',
      readyTimeoutMs: 120_000,
    });
    base = running[0]!.url;
  };

  beforeAll(async () => {
    portOffset = await freeServicesPortOffset();
    const mongo = await startEmbeddedMongo();
    stopMongo = mongo.stop;
    relay = await commitKillSwitch(mongo.uri);
    env = { ...process.env, ...testEnv(prefix, relay.uri) };
    delete env.PORT;
    await launch();
  });

  afterAll(async () => {
    await stopServices(running);
    await deleteBrokerObjects(prefix);
    await deleteRedisKeys(`${prefix}:`);
    await relay?.stop();
    await stopMongo?.();
  });

  /** A POST as the gateway forwards one with an Idempotency-Key: the key and the request's fingerprint signed. */
  const idempotentPost = async (path: string, body: unknown, key: string) => {
    const text = JSON.stringify(body);
    const fingerprint = createHash('sha256').update(`POST /api/v1${path}\n`).update(text).digest('hex');
    try {
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(await identityHeaders(company, { idempotencyKey: key, idempotencyFingerprint: fingerprint })),
        },
        body: text,
        signal: AbortSignal.timeout(60_000),
      });
      return { status: res.status, replayed: res.headers.get('idempotent-replayed'), body: (await res.json()) as any };
    } catch {
      return { status: 0, replayed: null, body: undefined }; // the service died before it answered
    }
  };

  /** Sends once with the relay armed (the service dies after its commit), restarts it and sends again. */
  const crashThenRetry = async (path: string, body: unknown, key: string) => {
    const killed = relay.arm('idempotency_journal', running[0]!.child.pid!);
    const first = await idempotentPost(path, body, key);
    expect({ first: first.status, body: first.body }).toEqual({ first: 0, body: undefined });
    await killed;
    // killed by a signal, a process has no exit code (signalCode says it): the exit may have come before this line
    const child = running[0]!.child;
    await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(undefined) : child.once('exit', r)));
    await launch();
    return idempotentPost(path, body, key);
  };

  it('creates a customer once: the retry after the crash answers it, a third send replays the kept answer', async () => {
    const body = { organization_name: 'Once GmbH' };
    const retry = await crashThenRetry('/customer/', body, 'customer-1');
    expect(retry.status).toBe(201);
    expect(retry.replayed).toBe('true');
    expect(retry.body).toEqual({ message: 'customer created', id: expect.any(Number) });
    const list = (await call('GET', '/customer/?limit=100')).body as Array<{ id: number; organization_name: string }>;
    expect(list.filter((c) => c.organization_name === 'Once GmbH').map((c) => c.id)).toEqual([retry.body.id]);
    expect((await call('GET', `/customer/${retry.body.id}`)).body.organization_name).toBe('Once GmbH');
    expect(await idempotentPost('/customer/', body, 'customer-1')).toEqual(retry);
  });

  it('adds an address once: the retry after the crash answers the address stored', async () => {
    const customer = (await call('POST', '/customer/', { organization_name: 'Address GmbH' })).body.id as number;
    const address = { type: 'billing', address_line_1: 'Hauptstr. 1', postal_code: '10115', city: 'Berlin', country_code: 'DE' };
    const retry = await crashThenRetry(`/customer/${customer}/addresses`, address, `address-${customer}`);
    expect(retry.status).toBe(201);
    expect(retry.body).toMatchObject({ id: expect.any(Number), address_line_1: 'Hauptstr. 1', city: 'Berlin' });
    const addresses = (await call('GET', `/customer/${customer}/addresses`)).body as Array<{ id: number }>;
    expect(addresses.map((a) => a.id)).toEqual([retry.body.id]);
  });
});
