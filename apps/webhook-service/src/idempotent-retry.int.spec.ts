import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { MongoClient } from 'mongodb';
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
 * The documented retry path for webhook-service's creations: a POST sent with an Idempotency-Key whose service dies
 * right after its commit (the gateway answers 504 and forgets its copy) and that the client sends again with the same
 * key. webhook-service runs as its own process behind a relay to MongoDB that kills it (SIGKILL) the moment its
 * commit has gone out; after a restart the retry answers the first result (a secret only redacted: it was never
 * kept) and nothing exists twice.
 */
describe('idempotent retries across a crash between commit and answer (webhook-service)', () => {
  const prefix = uniquePrefix('idemwh');
  const company = 'cmp_idemwh';
  let portOffset = 0;
  let mongoUri = '';
  let stopMongo: () => Promise<void>;
  let relay: CommitKillSwitch;
  let env: NodeJS.ProcessEnv;
  let running: RunningService[] = [];
  let base = '';
  const call = serviceCaller(() => base, company);
  // a port nothing listens on: the pings fail and stay in the log, which is all this test reads
  const endpoint = { url: 'http://127.0.0.1:9/hook', event_types: ['invoice.finalized'] };

  const launch = async () => {
    running = await launchServices({
      root: resolve(__dirname, '../../..'),
      services: ['webhook'],
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
    mongoUri = mongo.uri;
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

  /** What the service's database holds, read around the relay. */
  const stored = async () => {
    const client = await MongoClient.connect(mongoUri);
    try {
      const db = client.db(`${prefix.replace(/-/g, '_')}_invoicing_webhook`);
      return {
        endpoints: await db.collection('endpoints').find({ companyId: company }).toArray(),
        journal: JSON.stringify(await db.collection('idempotency_journal').find({ companyId: company }).toArray()),
      };
    } finally {
      await client.close();
    }
  };

  it('creates an endpoint once: the retry answers it with its secret redacted, a third send replays the kept answer', async () => {
    const retry = await crashThenRetry('/webhook-endpoints/', endpoint, 'endpoint-1');
    expect(retry.status).toBe(201);
    expect(retry.replayed).toBe('true');
    expect(retry.body).toMatchObject({ id: expect.stringMatching(/^we_/), url: endpoint.url, secret: `whsec_${'*'.repeat(32)}` });
    const list = (await call('GET', '/webhook-endpoints/')).body;
    expect((list.endpoints ?? list).map((e: { id: string }) => e.id)).toEqual([retry.body.id]);
    const { endpoints, journal } = await stored();
    expect(endpoints.map((e) => e._id)).toEqual([retry.body.id]);
    expect(journal).not.toMatch(/whsec_[A-Za-z0-9+/]{16}/);
    expect(await idempotentPost('/webhook-endpoints/', endpoint, 'endpoint-1')).toEqual(retry);
  });

  it('queues a test ping once: the retry answers the same delivery', async () => {
    const id = (await call('POST', '/webhook-endpoints/', { ...endpoint, url: 'http://127.0.0.1:9/ping' })).body.id as string;
    const retry = await crashThenRetry(`/webhook-endpoints/${id}/test`, {}, `ping-${id}`);
    expect(retry.status).toBe(202);
    expect(retry.body).toEqual({ delivery_id: expect.stringMatching(/^wd_/), event_id: expect.stringMatching(/^evt_/) });
    const deliveries = (await call('GET', `/webhook-endpoints/${id}/deliveries`)).body.deliveries as Array<{
      id: string;
      event_id: string;
    }>;
    expect(deliveries.map((d) => [d.id, d.event_id])).toEqual([[retry.body.delivery_id, retry.body.event_id]]);
  });

  it('rotates a secret once: the retry answers the rotation stored, its secret redacted', async () => {
    const id = (await call('POST', '/webhook-endpoints/', { ...endpoint, url: 'http://127.0.0.1:9/rotate' })).body.id as string;
    const retry = await crashThenRetry(`/webhook-endpoints/${id}/rotate-secret`, {}, `rotate-${id}`);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual({ secret: `whsec_${'*'.repeat(32)}`, previous_secret_expires_at: expect.any(String) });
    const secrets = (await stored()).endpoints.find((e) => String(e._id) === id)!.secrets as Array<{ expiresAt?: Date }>;
    // the first secret and one rotation: the retry rotated nothing again
    expect(secrets).toHaveLength(2);
    expect(secrets.find((s) => s.expiresAt)!.expiresAt!.toISOString()).toBe(retry.body.previous_secret_expires_at);
  });
});
