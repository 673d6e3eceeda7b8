import pino from 'pino';
import type { BusLogger } from './index';

describe('BusLogger', () => {
  it('is satisfied by a pino logger (checked by the type checker)', () => {
    const logger: BusLogger = pino({ level: 'silent' });
    expect(() => logger.info({ queue: 'q' }, 'bus: consuming')).not.toThrow();
  });
});
