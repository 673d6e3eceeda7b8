import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { MongoClient } from 'mongodb';
import { startEmbeddedMongo } from '@inv/embedded-mongo';
import { freeServicesPortOffset, launchServices, SERVICES, stopServices, type RunningService, type ServiceName } from '@inv/runtime';
import { startFakeInvoiceService, type FakeInvoiceService } from './testing/fake-invoice-service';
import {
  commitKillSwitch,
  deleteBrokerObjects,
  deleteRedisKeys,
  identityHeaders,
  serviceCaller,
  TEST_IDENTITY_KEY,
  testEnv,
  uniquePrefix,
  type CommitKillSwitch,
} from '@inv/testing';

jest.setTimeout(240_000);

/**
 * The service as its own process behind a relay to MongoDB that kills it (SIGKILL) the moment a commit of an
 * idempotent request has gone out (libs/testing commit-kill-switch.ts), restarted after.
 */
function crashHarness(
  service: ServiceName,
  company: string,
  /** Extra environment of the service; given the port offset its peers' URLs are at (serviceUrls). */
  extraEnv: (portOffset: number) => Promise<Record<string, string>> | Record<string, string> = () => ({}),
) {
  const prefix = uniquePrefix(`idem${service}`);
  let portOffset = 0;
  let mongoUri = '';
  let stopMongo: () => Promise<void>;
  let relay: CommitKillSwitch;
  let env: NodeJS.ProcessEnv;
  let running: RunningService[] = [];
  let base = '';
  const launch = async () => {
    running = await launchServices({
      root: resolve(__dirname, '../../..'),
      services: [service],
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
    env = { ...process.env, ...testEnv(prefix, relay.uri, await extraEnv(portOffset)) };
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
  const idempotentPost = async (path: string, body: unknown, key: string, contentType = 'application/json') => {
    const payload = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
    const fingerprint = createHash('sha256').update(`POST /api/v1${path}\n`).update(payload).digest('hex');
    try {
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: {
          'content-type': contentType,
          ...(await identityHeaders(company, { idempotencyKey: key, idempotencyFingerprint: fingerprint })),
        },
        body: payload,
        signal: AbortSignal.timeout(60_000),
      });
      return { status: res.status, replayed: res.headers.get('idempotent-replayed'), body: (await res.json()) as any };
    } catch {
      return { status: 0, replayed: null, body: undefined }; // the service died before it answered
    }
  };

  return {
    call: serviceCaller(() => base, company),
    idempotentPost,
    /** Sends once with the relay armed (the service dies after its commit), restarts it and sends again. */
    async crashThenRetry(path: string, body: unknown, key: string, contentType?: string) {
      const killed = relay.arm('idempotency_journal', running[0]!.child.pid!);
      const first = await idempotentPost(path, body, key, contentType);
      expect({ first: first.status, body: first.body }).toEqual({ first: 0, body: undefined });
      await killed;
      // killed by a signal, a process has no exit code (signalCode says it): the exit may have come before this line
      const child = running[0]!.child;
      await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(undefined) : child.once('exit', r)));
      await launch();
      return idempotentPost(path, body, key, contentType);
    },
    /** A collection of the service's database, read around the relay. */
    async stored(database: string, collection: string, filter: Record<string, unknown> = {}) {
      const client = await MongoClient.connect(mongoUri);
      try {
        return await client
          .db(`${prefix.replace(/-/g, '_')}_${database}`)
          .collection(collection)
          .find(filter)
          .toArray();
      } finally {
        await client.close();
      }
    },
  };
}

/**
 * The documented retry path for recurring-service: POST /recurring-invoices/ sent with an Idempotency-Key whose
 * service dies right after its commit and that the client sends again with the same key answers the first schedule;
 * one schedule exists.
 */
describe('idempotent retries across a crash between commit and answer (recurring-service)', () => {
  const company = 'cmp_idemrecurring';
  // the template is checked by invoice-service's POST /invoice/validate before the schedule is saved
  let invoices: FakeInvoiceService | undefined;
  // (on invoice-service's port: the launcher gives the service its peers' URLs)
  const h = crashHarness('recurring', company, async (portOffset) => {
    invoices = await startFakeInvoiceService(TEST_IDENTITY_KEY, SERVICES.invoice.port + portOffset);
    return {};
  });
  afterAll(async () => {
    await invoices?.close();
  });

  it('creates a schedule once; a third send replays the kept answer', async () => {
    const body = {
      name: 'Rent once',
      template: {
        customer_id: 7,
        positions: [{ title: 'Office rent', quantity: 1, unit_id: 'MON', unit_net_amount: 1200, tax_rate: '0.19' }],
      },
      schedule: { interval: 'monthly', day_of_month: 1, start_date: `${new Date().getUTCFullYear() + 1}-01-01` },
    };
    const retry = await h.crashThenRetry('/recurring-invoices/', body, 'schedule-1');
    expect(retry.status).toBe(201);
    expect(retry.replayed).toBe('true');
    expect(retry.body).toMatchObject({ id: expect.any(Number), name: 'Rent once', status: 'active' });
    expect((await h.stored('invoicing_recurring', 'schedules', { companyId: company })).map((s) => s.id)).toEqual([retry.body.id]);
    expect(await h.idempotentPost('/recurring-invoices/', body, 'schedule-1')).toEqual(retry);
  });
});
