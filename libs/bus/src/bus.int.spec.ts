import {
  createBus,
  HEADER,
  MessageValidationError,
  PermanentError,
  PublishError,
  type Bus,
  type BusOptions,
  type Envelope,
  type HandlerContext,
} from './index';
import { connect } from 'amqplib';
import { AMQP_URL, deferred, memoryLogger, peekHeaders, queueDepth, rawPublish, registry, testPrefix, waitFor } from '../test/support';

jest.setTimeout(30000);

type TestBus = Bus<typeof registry>;
const prefix = testPrefix();
const buses: TestBus[] = [];

function newBus(service: string, overrides: Partial<BusOptions> = {}): TestBus {
  const bus = createBus(registry, { url: AMQP_URL, prefix, service, logger: memoryLogger(), retryDelaysMs: [50, 100], ...overrides });
  buses.push(bus);
  return bus;
}

afterEach(async () => {
  await Promise.all(buses.map((b) => b.stop()));
  for (const b of buses.splice(0)) await b.deleteAll();
});

const finalized = { invoiceId: 42, total: '119.00' };

describe('events', () => {
  it('fan out to every bound queue, once each, with the envelope and context', async () => {
    const got: Record<string, Array<{ msg: Envelope; ctx: HandlerContext }>> = { ledger: [], projection: [] };
    const invoice = newBus('invoice-service');
    const exporter = newBus('export-service');
    const gateway = newBus('gateway');
    invoice.onEvent('ledger', ['invoice.finalized.v1'], async (msg, ctx) => void got.ledger.push({ msg, ctx }));
    exporter.onEvent('projection', ['invoice.finalized.v1'], async (msg, ctx) => void got.projection.push({ msg, ctx }));
    await Promise.all([invoice.start(), exporter.start(), gateway.start()]);

    await gateway.publishEvent('customer.created.v1', 'company-1', { customerId: 1 }); // bound nowhere: dropped
    const sent = await gateway.publishEvent('invoice.finalized.v1', 'company-1', finalized, { correlationId: 'corr-1' });

    await waitFor(() => got.ledger.length >= 1 && got.projection.length >= 1, 5000, 'both queues');
    for (const [{ msg, ctx }] of [got.ledger, got.projection]) {
      expect(msg).toEqual(sent);
      expect(msg).toMatchObject({ type: 'invoice.finalized.v1', companyId: 'company-1', data: finalized });
      expect(ctx).toMatchObject({ attempt: 1, redelivered: false, correlationId: 'corr-1' });
    }
    expect(await queueDepth(`${prefix}.invoice-service.ledger`)).toBe(0);
    expect(got.ledger).toHaveLength(1);
    expect(got.projection).toHaveLength(1);
  });

  it('carries the actor of the handled message into what its handler publishes, unless the publisher names one', async () => {
    const got: Envelope[] = [];
    const invoice = newBus('invoice-service');
    const document = newBus('document-service');
    document.onCommand('document.render.v1', async (msg) => {
      await document.publishEvent('invoice.finalized.v1', msg.companyId, finalized);
      await document.publishEvent('invoice.finalized.v1', msg.companyId, { ...finalized, invoiceId: 43 }, { actor: { role: 'system' } });
    });
    invoice.onEvent('after-render', ['invoice.finalized.v1'], async (msg) => void got.push(msg));
    await Promise.all([invoice.start(), document.start()]);
    const actor = { keyId: 'key-1', role: 'admin', requestId: 'req-1' };
    await invoice.sendCommand('document.render.v1', 'c1', { invoiceId: 42 }, { actor });
    await invoice.publishEvent('invoice.finalized.v1', 'c1', { ...finalized, invoiceId: 44 }); // outside any handler: none
    await waitFor(() => got.length >= 3, 5000, 'three events');
    const byInvoice = Object.fromEntries(got.map((m) => [(m.data as { invoiceId: number }).invoiceId, m.actor]));
    expect(byInvoice).toEqual({ 42: actor, 43: { role: 'system' }, 44: undefined });
  });

  it('refuses to publish a message that breaks its contract', async () => {
    const bus = newBus('gateway');
    await bus.start();
    await expect(bus.publishEvent('invoice.finalized.v1', 'c1', { invoiceId: 'x', total: '1' } as never)).rejects.toThrow(
      MessageValidationError,
    );
    await expect(bus.publishEvent('no.such.v1' as never, 'c1', {} as never)).rejects.toThrow(/unknown event type/);
    await expect(bus.sendCommand('document.render.v1', '', { invoiceId: 1 })).rejects.toThrow(/companyId/);
  });

  it('parks a received message that breaks its contract, without calling the handler or retrying', async () => {
    const logger = memoryLogger();
    const bus = newBus('invoice-service', { logger });
    const handled: unknown[] = [];
    bus.onEvent('strict', ['invoice.finalized.v1'], async (msg) => void handled.push(msg));
    await bus.start();
    const bad = {
      id: 'bad-1',
      type: 'invoice.finalized.v1',
      occurredAt: new Date().toISOString(),
      companyId: 'c1',
      data: { invoiceId: 'nope' },
    };
    await rawPublish(`${prefix}.events`, 'invoice.finalized.v1', JSON.stringify(bad), { messageId: 'bad-1' });
    await rawPublish(`${prefix}.events`, 'invoice.finalized.v1', 'not json at all', { messageId: 'bad-2' });

    const parking = `${prefix}.invoice-service.strict.parking`;
    await waitFor(async () => (await queueDepth(parking)) === 2, 5000, 'two parked messages');
    expect(handled).toEqual([]);
    expect(await bus.parkedMessages('strict')).toEqual([bad]); // the unreadable one stays parked but cannot be shown as an envelope
    const headers = await peekHeaders(parking);
    expect(headers.map((h) => h[HEADER.parkReason])).toEqual(['invalid', 'invalid']);
    expect(String(headers[0][HEADER.error])).toMatch(/invoiceId/);
    expect(logger.entries.some((e) => e.level === 'error' && /invalid message parked/.test(e.msg ?? ''))).toBe(true);
  });
});

describe('publisher confirms', () => {
  it('reject the publish when the broker nacks it', async () => {
    const bus = newBus('gateway');
    await bus.start();
    // A queue that refuses every message makes the broker nack publishes routed to it.
    const conn = await connect(AMQP_URL);
    const full = `${prefix}.refuses-all`;
    try {
      const ch = await conn.createChannel();
      await ch.assertQueue(full, { durable: false, arguments: { 'x-max-length': 0, 'x-overflow': 'reject-publish' } });
      await ch.bindQueue(full, `${prefix}.events`, 'customer.created.v1');
      await expect(bus.publishEvent('customer.created.v1', 'c1', { customerId: 1 })).rejects.toBeInstanceOf(PublishError);
      await expect(bus.publishEvent('invoice.finalized.v1', 'c1', finalized)).resolves.toMatchObject({ type: 'invoice.finalized.v1' });
      await ch.deleteQueue(full);
    } finally {
      await conn.close();
    }
  });
});

describe('commands', () => {
  it('go to exactly one of the competing consumers', async () => {
    const seen: string[] = [];
    const workers = [newBus('document-service'), newBus('document-service')];
    for (const w of workers) w.onCommand('document.render.v1', async (msg) => void seen.push(msg.id));
    const sender = newBus('invoice-service');
    await Promise.all([...workers, sender].map((b) => b.start()));
    const sent = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => sender.sendCommand('document.render.v1', 'c1', { invoiceId: n })));
    await waitFor(() => seen.length >= 6, 5000, 'six commands');
    expect([...seen].sort()).toEqual(sent.map((e) => e.id).sort());
  });

  it('are kept when sent before the owner ever ran (the sender declares the queue)', async () => {
    const sender = newBus('invoice-service');
    await sender.start();
    const sent = await sender.sendCommand('document.render.v1', 'c1', { invoiceId: 9 });
    const owner = newBus('document-service');
    const got = deferred<Envelope>();
    owner.onCommand('document.render.v1', async (msg) => got.resolve(msg));
    await owner.start();
    expect(await got.promise).toEqual(sent);
  });

  it('reach a handler registered after start()', async () => {
    const bus = newBus('document-service');
    await bus.start();
    const got = deferred<Envelope>();
    bus.onCommand('document.render.v1', async (msg) => got.resolve(msg));
    const sent = await bus.sendCommand('document.render.v1', 'c1', { invoiceId: 11 });
    expect(await got.promise).toEqual(sent);
  });
});

describe('failures', () => {
  it('retry with the configured delays and then succeed', async () => {
    const bus = newBus('document-service');
    const attempts: number[] = [];
    const started = Date.now();
    const done = deferred<number>();
    bus.onCommand('document.render.v1', async (_msg, ctx) => {
      attempts.push(ctx.attempt);
      if (ctx.attempt < 3) throw new Error(`flaky ${ctx.attempt}`);
      done.resolve(Date.now() - started);
    });
    await bus.start();
    await bus.sendCommand('document.render.v1', 'c1', { invoiceId: 1 });
    const elapsed = await done.promise;
    expect(attempts).toEqual([1, 2, 3]);
    expect(elapsed).toBeGreaterThanOrEqual(150); // 50 ms + 100 ms in the retry queues
    await waitFor(async () => (await queueDepth(`${prefix}.cmd.document.render.v1`)) === 0, 2000, 'acked');
    expect(await bus.parkedMessages('document.render.v1')).toEqual([]);
  });

  it('park after the last retry with the error, and replay back to the work queue', async () => {
    const bus = newBus('document-service');
    const attempts: number[] = [];
    let healthy = false;
    const replayed = deferred<HandlerContext>();
    bus.onCommand('document.render.v1', async (_msg, ctx) => {
      attempts.push(ctx.attempt);
      if (!healthy) throw new Error('renderer down');
      replayed.resolve(ctx);
    });
    await bus.start();
    const sent = await bus.sendCommand('document.render.v1', 'c1', { invoiceId: 2 });

    const parked = await waitFor(
      async () => {
        const list = await bus.parkedMessages('document.render.v1');
        return list.length === 1 ? list : undefined;
      },
      5000,
      'parked',
    );
    expect(parked).toEqual([sent]);
    expect(attempts).toEqual([1, 2, 3]);
    const [headers] = await peekHeaders(`${prefix}.cmd.document.render.v1.parking`);
    expect(headers).toMatchObject({ [HEADER.error]: 'renderer down', [HEADER.parkReason]: 'exhausted', [HEADER.attempt]: 3 });

    healthy = true;
    expect(await bus.replayParked('document.render.v1')).toBe(1);
    const ctx = await replayed.promise;
    expect(ctx.attempt).toBe(1);
    expect(await bus.parkedMessages(`${prefix}.cmd.document.render.v1`)).toEqual([]);
  });

  it('a replay right after a listing moves what was listed', async () => {
    // a listing gets the parked messages without an ack and closes its channel; they go back to a quorum queue
    // asynchronously, and a replay that counted them at once could find none (5 of 100 raw tries, RabbitMQ 3.10).
    // The listing here comes from another connection, as an operator's tool would list them.
    const bus = newBus('document-service', { retryDelaysMs: [] });
    const operator = newBus('document-service');
    let handled = 0;
    let healthy = false;
    bus.onCommand('document.render.v1', async () => {
      if (!healthy) throw new Error('renderer down');
      handled++;
    });
    await bus.start();
    await operator.start();
    for (let round = 1; round <= 20; round++) {
      healthy = false;
      await bus.sendCommand('document.render.v1', 'c1', { invoiceId: round });
      await waitFor(async () => (await operator.parkedMessages('document.render.v1')).length === 1 || undefined, 5000, 'parked');
      healthy = true;
      expect(await bus.replayParked('document.render.v1')).toBe(1);
      await waitFor(async () => handled === round || undefined, 5000, 'replayed');
    }
    await operator.stop();
  });

  it('park a PermanentError at once', async () => {
    const bus = newBus('document-service');
    const attempts: number[] = [];
    bus.onCommand('document.render.v1', async (_msg, ctx) => {
      attempts.push(ctx.attempt);
      throw new PermanentError('invoice 3 does not exist');
    });
    await bus.start();
    await bus.sendCommand('document.render.v1', 'c1', { invoiceId: 3 });
    const parking = `${prefix}.cmd.document.render.v1.parking`;
    await waitFor(async () => (await queueDepth(parking)) === 1, 5000, 'parked');
    expect(attempts).toEqual([1]);
    expect((await peekHeaders(parking))[0]).toMatchObject({ [HEADER.parkReason]: 'permanent', [HEADER.error]: 'invoice 3 does not exist' });
  });
});

describe('stop', () => {
  it('waits for the in-flight handler and acks its message', async () => {
    const bus = newBus('document-service');
    const entered = deferred();
    const release = deferred();
    let finished = false;
    bus.onCommand('document.render.v1', async () => {
      entered.resolve();
      await release.promise;
      finished = true;
    });
    await bus.start();
    expect(bus.isReady()).toBe(true);
    await bus.sendCommand('document.render.v1', 'c1', { invoiceId: 4 });
    await entered.promise;

    let stopped = false;
    const stopping = bus.stop().then(() => (stopped = true));
    await new Promise((r) => setTimeout(r, 100)); // give stop() every chance to (wrongly) finish early
    expect(stopped).toBe(false);
    release.resolve();
    await stopping;
    expect(finished).toBe(true);
    expect(bus.isReady()).toBe(false);
    expect(await queueDepth(`${prefix}.cmd.document.render.v1`)).toBe(0);
  });
});
