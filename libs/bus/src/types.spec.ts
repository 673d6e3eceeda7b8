import pino from 'pino';
import type { z } from 'zod';
import { registry } from '../test/support';
import { createBus, type Bus, type BusLogger, type Envelope, type HandlerContext } from './index';

// Mostly compile-time checks: `tsc` (the typecheck target) fails if the public types regress.

describe('public types', () => {
  it('accept a pino logger as BusLogger', () => {
    const logger: BusLogger = pino({ level: 'silent' });
    expect(() => logger.info({ queue: 'q' }, 'bus: consuming')).not.toThrow();
  });

  it('type handlers by their contracts', () => {
    const bus: Bus<typeof registry> = createBus(registry, {
      url: 'amqp://127.0.0.1:1',
      prefix: 't-types',
      service: 'types',
      logger: pino({ level: 'silent' }),
    });
    // A handler written against the plain Envelope<output> shape is accepted...
    const plain = async (
      msg: Envelope<z.output<(typeof registry)['events']['invoice.finalized.v1']>>,
      ctx: HandlerContext,
    ): Promise<void> => {
      expect(msg.data.invoiceId + ctx.attempt).toBeGreaterThan(0);
    };
    bus.onEvent('plain', ['invoice.finalized.v1'], plain);
    // ...and with several types, `switch (msg.type)` narrows `msg.data`.
    bus.onEvent('both', ['invoice.finalized.v1', 'customer.created.v1'], async (msg) => {
      switch (msg.type) {
        case 'invoice.finalized.v1':
          expect(msg.data.total).toBeDefined();
          break;
        case 'customer.created.v1':
          expect(msg.data.customerId).toBeDefined();
          break;
      }
    });
    bus.serveRpc('quota.reserve.v1', async (msg) => ({ used: msg.data.month.length, limit: 1 }));
    // @ts-expect-error data must match the command's contract
    void bus.sendCommand('document.render.v1', 'c1', { invoiceId: 'x' }).catch(() => undefined);
    // @ts-expect-error unknown event types do not compile (and throw at run time)
    expect(() => bus.onEvent('nope', ['no.such.v1'], async () => undefined)).toThrow(/unknown event type/);
    expect(bus.isReady()).toBe(false);
  });

  it('refuse to publish before start()', async () => {
    const bus = createBus(registry, { url: 'amqp://127.0.0.1:1', prefix: 't-types', service: 'types', logger: pino({ level: 'silent' }) });
    await expect(bus.publishEvent('customer.created.v1', 'c1', { customerId: 1 })).rejects.toThrow(/start\(\)/);
    await expect(bus.callRpc('vat.check.v1', 'c1', { vatId: 'x' })).rejects.toThrow(/start\(\)/);
  });
});
