import { createBus, MessageValidationError, RpcRemoteError, RpcTimeoutError, type Bus, type BusOptions } from './index';
import { AMQP_URL, deferred, memoryLogger, registry, testPrefix, waitFor } from '../test/support';

jest.setTimeout(30000);

type TestBus = Bus<typeof registry>;
const prefix = testPrefix();
const buses: TestBus[] = [];
const release = deferred();

function newBus(service: string, overrides: Partial<BusOptions> = {}): TestBus {
  const bus = createBus(registry, { url: AMQP_URL, prefix, service, logger: memoryLogger(), retryDelaysMs: [50, 100], ...overrides });
  buses.push(bus);
  return bus;
}

let server: TestBus;
let client: TestBus;
const seenCompanies: string[] = [];

beforeAll(async () => {
  server = newBus('quota-service');
  client = newBus('invoice-service');
  server.serveRpc('quota.reserve.v1', async (msg) => {
    seenCompanies.push(msg.companyId);
    if (msg.data.month === '2099-01') {
      throw Object.assign(new Error('monthly limit reached'), {
        code: 'INVOICE_LIMIT_REACHED',
        details: { used: 3, limit: 3, reset_date: '2099-02-01' },
      });
    }
    if (msg.data.month === '2099-02') await release.promise; // slower than the caller is willing to wait
    if (msg.data.month === '2099-03') return { used: 'many', limit: 3 } as never; // a broken server answer
    return { used: 1, limit: 100 };
  });
  await Promise.all([server.start(), client.start()]);
});

afterAll(async () => {
  release.resolve();
  await Promise.all(buses.map((b) => b.stop()));
  for (const b of buses) await b.deleteAll();
});

describe('RPC over direct reply-to', () => {
  it('answers a request, fast', async () => {
    expect(await client.callRpc('quota.reserve.v1', 'company-7', { month: '2026-11' })).toEqual({ used: 1, limit: 100 });
    expect(seenCompanies).toContain('company-7');

    for (let i = 0; i < 50; i++) await client.callRpc('quota.reserve.v1', 'company-7', { month: '2026-11' }); // warm-up
    const samples: number[] = [];
    for (let i = 0; i < 300; i++) {
      const t0 = process.hrtime.bigint();
      await client.callRpc('quota.reserve.v1', 'company-7', { month: '2026-11' });
      samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    samples.sort((a, b) => a - b);
    const median = samples[Math.floor(samples.length / 2)];
    const p95 = samples[Math.floor(samples.length * 0.95)];
    console.log(`RPC round trip over 300 sequential calls: median ${median.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms`);
    // With Nagle's algorithm on (no noDelay) the median sits at ~40 ms on this machine (measured with raw amqplib).
    expect(median).toBeLessThan(20);
  });

  it('times out when the server is too slow', async () => {
    const t0 = Date.now();
    await expect(client.callRpc('quota.reserve.v1', 'c1', { month: '2099-02' }, { timeoutMs: 200 })).rejects.toBeInstanceOf(
      RpcTimeoutError,
    );
    expect(Date.now() - t0).toBeGreaterThanOrEqual(190);
  });

  it('carries the remote error code, message and details back', async () => {
    const err = await client.callRpc('quota.reserve.v1', 'c1', { month: '2099-01' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcRemoteError);
    expect(err).toMatchObject({
      code: 'INVOICE_LIMIT_REACHED',
      message: 'monthly limit reached',
      details: { used: 3, limit: 3, reset_date: '2099-02-01' },
    });
  });

  it('blames a server whose answer breaks the contract', async () => {
    await expect(client.callRpc('quota.reserve.v1', 'c1', { month: '2099-03' })).rejects.toMatchObject({ code: 'RPC_INVALID_MESSAGE' });
  });

  it('refuses an invalid request before sending it', async () => {
    await expect(client.callRpc('quota.reserve.v1', 'c1', { month: 'november' })).rejects.toBeInstanceOf(MessageValidationError);
  });

  it('fails fast when no server queue exists, and serves what is registered after start', async () => {
    await expect(client.callRpc('vat.check.v1', 'c1', { vatId: 'DE123' })).rejects.toMatchObject({ code: 'RPC_NO_SERVER' });
    server.serveRpc('vat.check.v1', async (msg) => ({ valid: msg.data.vatId.startsWith('DE') }));
    const answer = await waitFor(
      () => client.callRpc('vat.check.v1', 'c1', { vatId: 'DE123' }, { timeoutMs: 500 }).catch(() => undefined),
      5000,
      'late RPC server',
    );
    expect(answer).toEqual({ valid: true });
  });
});
