import { connect } from 'amqplib';
import { createBus, retryQueueOptions, type Bus, type BusOptions } from './index';
import { AMQP_URL, memoryLogger, registry, testPrefix, waitFor } from '../test/support';

jest.setTimeout(30000);

type TestBus = Bus<typeof registry>;
const prefix = testPrefix();
const buses: TestBus[] = [];

function newBus(service: string, overrides: Partial<BusOptions> = {}): TestBus {
  const bus = createBus(registry, { url: AMQP_URL, prefix, service, logger: memoryLogger(), retryDelaysMs: [50, 100], ...overrides });
  buses.push(bus);
  return bus;
}

afterAll(async () => {
  await Promise.all(buses.map((b) => b.stop()));
  for (const b of buses.splice(0)) await b.deleteAll();
});

/** The queue's type as the broker holds it: redeclared with another type, the broker names the current one (406). */
async function queueTypeOf(queue: string, args: Record<string, unknown> = {}): Promise<string> {
  const conn = await connect(AMQP_URL);
  try {
    const ch = await conn.createChannel();
    ch.on('error', () => undefined);
    try {
      await ch.assertQueue(queue, { durable: true, arguments: { ...args, 'x-queue-type': 'stream' } });
      return 'stream';
    } catch (err) {
      // "... but current is 'quorum'" / "... but current is none" (a classic queue has no x-queue-type)
      const message = (err as Error).message;
      if (/current is none/.test(message)) return 'classic';
      const m = /current is [^']*'(\w+)'/.exec(message);
      if (!m) throw err;
      return m[1];
    }
  } finally {
    await conn.close().catch(() => undefined);
  }
}

describe('quorum queues (the default queue type)', () => {
  it('the broker accepts the declarations, and a failed message goes through a quorum retry queue back to its work queue', async () => {
    const seen: number[] = [];
    const worker = newBus('document-service');
    worker.onCommand('document.render.v1', async (_msg, ctx) => {
      seen.push(ctx.attempt);
      if (ctx.attempt < 3) throw new Error('transient');
    });
    const sender = newBus('invoice-service');
    await Promise.all([worker.start(), sender.start()]);
    await sender.sendCommand('document.render.v1', 'company-1', { invoiceId: 7 });
    await waitFor(() => seen.length >= 3, 10000, 'third attempt');
    expect(seen).toEqual([1, 2, 3]);

    const work = `${prefix}.cmd.document.render.v1`;
    expect(await queueTypeOf(work)).toBe('quorum');
    // the other arguments as declared, so that the type is the one difference the broker reports
    for (const delay of [50, 100])
      expect(await queueTypeOf(`${work}.retry.${delay}`, retryQueueOptions('quorum', delay, work).arguments)).toBe('quorum');
    expect(await queueTypeOf(`${work}.parking`)).toBe('quorum');
  });

  it('declares classic queues when asked (a local broker holding classic queues of the same names)', async () => {
    const bus = newBus('export-service', { queueType: 'classic' });
    bus.onEvent('classic-probe', ['invoice.finalized.v1'], async () => undefined);
    await bus.start();
    expect(await queueTypeOf(`${prefix}.export-service.classic-probe`)).toBe('classic');
  });
});
