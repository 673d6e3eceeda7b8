import { connect } from 'amqplib';
import { createBus, type Bus, type BusOptions, type Envelope, type HandlerContext } from './index';
import { AMQP_URL, brokerCloseConnection, deferred, memoryLogger, queueDepth, registry, testPrefix, waitFor } from '../test/support';

jest.setTimeout(30000);

type TestBus = Bus<typeof registry>;
const prefix = testPrefix();
const buses: TestBus[] = [];

function newBus(service: string, overrides: Partial<BusOptions> = {}): TestBus {
  const bus = createBus(registry, {
    url: AMQP_URL,
    prefix,
    service,
    logger: memoryLogger(),
    retryDelaysMs: [50, 100],
    reconnectDelaysMs: [50, 100, 200],
    connectionName: `${prefix}.${service}`,
    ...overrides,
  });
  buses.push(bus);
  return bus;
}

afterEach(async () => {
  await Promise.all(buses.map((b) => b.stop()));
  for (const b of buses.splice(0)) await b.deleteAll();
});

describe('reconnection', () => {
  it('resumes consuming and publishing after the broker closes the connection', async () => {
    const logger = memoryLogger();
    const ledger = newBus('ledger-service', { logger });
    const gateway = newBus('gateway');
    const seen: number[] = [];
    ledger.onEvent('resume', ['invoice.finalized.v1'], async (msg) => void seen.push(msg.data.invoiceId));
    await Promise.all([ledger.start(), gateway.start()]);

    await gateway.publishEvent('invoice.finalized.v1', 'c1', { invoiceId: 1, total: '1.00' });
    await waitFor(() => seen.includes(1), 5000, 'first event');

    await brokerCloseConnection(`${prefix}.ledger-service`);
    await waitFor(() => logger.entries.some((e) => e.msg === 'bus: connection lost'), 5000, 'the bus to notice');
    await waitFor(() => ledger.isReady(), 5000, 'reconnect');

    await gateway.publishEvent('invoice.finalized.v1', 'c1', { invoiceId: 2, total: '2.00' });
    await ledger.publishEvent('invoice.finalized.v1', 'c1', { invoiceId: 3, total: '3.00' }); // its own publishing works again
    await waitFor(() => seen.includes(2) && seen.includes(3), 5000, 'events after the reconnect');
    expect(logger.entries.filter((e) => e.msg === 'bus: connected')).toHaveLength(2);
  });

  it('lets a publish made during the outage wait for the reconnect instead of failing', async () => {
    const gatewayLog = memoryLogger();
    // A long first reconnect delay keeps the outage open while we publish into it.
    const gateway = newBus('gateway', { logger: gatewayLog, reconnectDelaysMs: [400, 100] });
    const ledger = newBus('ledger-service');
    const seen: number[] = [];
    ledger.onEvent('outage', ['invoice.finalized.v1'], async (msg) => void seen.push(msg.data.invoiceId));
    await Promise.all([gateway.start(), ledger.start()]);

    await brokerCloseConnection(`${prefix}.gateway`);
    await waitFor(() => gatewayLog.entries.some((e) => e.msg === 'bus: connection lost'), 5000, 'the bus to notice');
    expect(gateway.isReady()).toBe(false);
    const t0 = Date.now();
    await gateway.publishEvent('invoice.finalized.v1', 'c1', { invoiceId: 10, total: '1.00' });
    expect(Date.now() - t0).toBeGreaterThan(100); // it waited for the reconnect
    expect(gateway.isReady()).toBe(true);
    await waitFor(() => seen.includes(10), 5000, 'event published during the outage');
  });

  it('redelivers a message whose consumer died before acking it, flagged redelivered, handled once to completion', async () => {
    const worker = newBus('document-service');
    const sender = newBus('invoice-service');
    const calls: Array<{ msg: Envelope; ctx: HandlerContext }> = [];
    const firstEntered = deferred();
    const releaseFirst = deferred();
    const secondDone = deferred();
    worker.onCommand('document.render.v1', async (msg, ctx) => {
      calls.push({ msg, ctx });
      if (calls.length === 1) {
        firstEntered.resolve();
        await releaseFirst.promise; // "crashes" mid-handling: its connection is killed below
        return;
      }
      secondDone.resolve();
    });
    await Promise.all([worker.start(), sender.start()]);
    const sent = await sender.sendCommand('document.render.v1', 'c1', { invoiceId: 5 });
    await firstEntered.promise;

    await brokerCloseConnection(`${prefix}.document-service`);
    await secondDone.promise;
    releaseFirst.resolve(); // the stale handler finishes; its ack must not be attempted on the dead channel

    expect(calls.map((c) => c.msg.id)).toEqual([sent.id, sent.id]);
    expect(calls.map((c) => c.ctx.redelivered)).toEqual([false, true]);
    expect(calls[1].ctx.attempt).toBe(1);
    await waitFor(async () => (await queueDepth(`${prefix}.cmd.document.render.v1`)) === 0, 5000, 'acked');
    expect(await worker.parkedMessages('document.render.v1')).toEqual([]);
  });

  it('fails start() after the reconnect schedule when the broker is unreachable', async () => {
    const bus = newBus('nowhere', { url: 'amqp://guest:guest@127.0.0.1:1', reconnectDelaysMs: [10, 20] });
    await expect(bus.start()).rejects.toThrow(/ECONNREFUSED/);
    expect(bus.isReady()).toBe(false);
    buses.splice(buses.indexOf(bus), 1); // nothing to delete
  });
});

describe('broker-side consumer cancel', () => {
  it('rebuilds the topology and resumes when someone deletes the work queue', async () => {
    const logger = memoryLogger();
    const worker = newBus('document-service', { logger });
    const seen: number[] = [];
    worker.onCommand('document.render.v1', async (msg) => void seen.push(msg.data.invoiceId));
    await worker.start();
    const conn = await connect(AMQP_URL);
    try {
      const ch = await conn.createChannel();
      await ch.deleteQueue(`${prefix}.cmd.document.render.v1`);
    } finally {
      await conn.close();
    }
    await waitFor(() => logger.entries.some((e) => /cancelled by the broker/.test(e.msg ?? '')), 5000, 'the cancel');
    await waitFor(() => logger.entries.filter((e) => e.msg === 'bus: connected').length === 2, 5000, 'the rebuild');
    await worker.sendCommand('document.render.v1', 'c1', { invoiceId: 21 });
    await waitFor(() => seen.includes(21), 5000, 'the command after the rebuild');
  });
});
