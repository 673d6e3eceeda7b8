import { setTimeout as sleep } from 'node:timers/promises';
import { oneAtATime } from './one-at-a-time';

describe('oneAtATime', () => {
  it('runs calls with the same key one after another, in call order, and different keys side by side', async () => {
    const serial = oneAtATime();
    const log: string[] = [];
    const job = (key: string, name: string, ms: number) =>
      serial(key, async () => {
        log.push(`start ${name}`);
        await sleep(ms);
        log.push(`end ${name}`);
        return name;
      });
    const results = await Promise.all([job('a', 'a1', 30), job('a', 'a2', 1), job('b', 'b1', 5)]);
    expect(results).toEqual(['a1', 'a2', 'b1']);
    expect(log).toEqual(['start a1', 'start b1', 'end b1', 'end a1', 'start a2', 'end a2']);
  });

  it('goes on with the next call after a failure, and passes the failure to its caller', async () => {
    const serial = oneAtATime();
    const failing = serial('k', async () => {
      await sleep(5);
      throw new Error('boom');
    });
    const next = serial('k', async () => 'next');
    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe('next');
  });
});
