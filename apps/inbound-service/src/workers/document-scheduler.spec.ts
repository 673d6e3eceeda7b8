import { setTimeout as sleep } from 'node:timers/promises';
import { documentScheduler } from './document-scheduler';
import { dutyCycle } from '../inspection/duty-cycle';

const logger = { error: jest.fn(), warn: jest.fn(), info: jest.fn(), debug: jest.fn() } as never;

describe('documentScheduler', () => {
  it('reads one document at a time, companies in turn, and queues what waits in MongoDB at start', async () => {
    const log: string[] = [];
    const s = documentScheduler({
      gate: dutyCycle(1),
      work: async (companyId, id) => {
        log.push(`${companyId}:${id}`);
        await sleep(5);
      },
      waiting: async () => [1, 2, 3].map((id) => ({ companyId: 'attacker', id })),
      logger,
      sweepMs: 60_000,
      limits: { perCompany: 100, total: 100 },
    });
    await s.start(); // attacker:1 starts
    s.enqueue('victim', 1);
    s.enqueue('attacker', 4);
    // until all five ran (bounded): a fixed pause was too short on a busy machine
    for (let waited = 0; log.length < 5 && waited < 10_000; waited += 20) await sleep(20);
    await s.stop();
    expect(log).toEqual(['attacker:1', 'victim:1', 'attacker:2', 'attacker:3', 'attacker:4']);
  });

  it('tries a document again after the delay its work asks for; a failed work does not stop the others', async () => {
    const log: string[] = [];
    let first = true;
    const s = documentScheduler({
      gate: dutyCycle(1),
      work: async (companyId, id) => {
        log.push(`${companyId}:${id}`);
        if (id === 2) throw new Error('MongoDB is away');
        if (first) {
          first = false;
          return { retryAfterMs: 20 };
        }
      },
      waiting: async () => [],
      logger,
      sweepMs: 60_000,
      limits: { perCompany: 100, total: 100 },
    });
    await s.start();
    s.enqueue('a', 1);
    s.enqueue('a', 2);
    s.enqueue('a', 3);
    for (let waited = 0; log.length < 4 && waited < 10_000; waited += 20) await sleep(20);
    await sleep(50); // nothing more comes
    await s.stop();
    expect(log).toEqual(['a:1', 'a:2', 'a:3', 'a:1']);
  });
});
