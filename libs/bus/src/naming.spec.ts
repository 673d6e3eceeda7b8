import { createNames } from './naming';

describe('createNames', () => {
  const n = createNames('inv', 'invoice-service');

  it('prefixes every exchange and queue', () => {
    expect(n.eventsExchange).toBe('inv.events');
    expect(n.commandsExchange).toBe('inv.commands');
    expect(n.eventQueue('invoice-ledger')).toBe('inv.invoice-service.invoice-ledger');
    expect(n.commandQueue('document.render.v1')).toBe('inv.cmd.document.render.v1');
    expect(n.rpcQueue('quota.reserve.v1')).toBe('inv.rpc.quota.reserve.v1');
  });

  it('derives retry and parking queues from the work queue', () => {
    expect(n.retryQueue('inv.cmd.document.render.v1', 5000)).toBe('inv.cmd.document.render.v1.retry.5000');
    expect(n.parkingQueue('inv.invoice-service.x')).toBe('inv.invoice-service.x.parking');
  });

  it('rejects retry delays that cannot be a TTL', () => {
    expect(() => n.retryQueue('q', 0)).toThrow(/positive integer/);
    expect(() => n.retryQueue('q', 1.5)).toThrow(/positive integer/);
  });

  it('rejects names that would break the naming scheme', () => {
    expect(() => createNames('', 'svc')).toThrow(/prefix/);
    expect(() => createNames('inv', 'a b')).toThrow(/service/);
    expect(() => createNames('inv', 'svc').eventQueue('.hidden')).toThrow(/purpose/);
    expect(() => createNames('inv/x', 'svc')).toThrow(/prefix/);
  });

  it('resolves the work queue behind a parking-queue lookup name', () => {
    const types = ['document.render.v1'];
    expect(n.resolveWorkQueue('inv.cmd.document.render.v1', types)).toBe('inv.cmd.document.render.v1');
    expect(n.resolveWorkQueue('document.render.v1', types)).toBe('inv.cmd.document.render.v1');
    expect(n.resolveWorkQueue('invoice-ledger', types)).toBe('inv.invoice-service.invoice-ledger');
  });
});
