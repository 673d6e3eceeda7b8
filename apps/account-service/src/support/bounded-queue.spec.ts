import { AppError } from '@inv/service-kit';
import { boundedQueue } from './bounded-queue';

describe('boundedQueue', () => {
  it('runs at most `concurrency` tasks at once, lets `maxQueued` wait and refuses the rest at once with 503', async () => {
    const q = boundedQueue({ concurrency: 2, maxQueued: 3, busyCode: 'LOGO_BUSY', what: 'logos', retryAfterSeconds: 2 });
    let running = 0;
    let most = 0;
    const task = async () => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 20));
      running--;
      return 'done';
    };
    const outcomes = await Promise.allSettled(Array.from({ length: 9 }, () => q.run(task)));
    expect(most).toBe(2);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(5);
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected').map((o) => o.reason as AppError);
    expect(refused).toHaveLength(4);
    for (const err of refused) {
      expect(err).toBeInstanceOf(AppError);
      expect([err.status, err.code, err.options.extra]).toEqual([503, 'LOGO_BUSY', { retry_after: 2 }]);
    }
    expect([q.running, q.queued]).toEqual([0, 0]);
  });

  it('frees the place of a task that failed', async () => {
    const q = boundedQueue({ concurrency: 1, maxQueued: 0, busyCode: 'BUSY', what: 'things', retryAfterSeconds: 1 });
    await expect(q.run(async () => Promise.reject(new Error('broken image')))).rejects.toThrow('broken image');
    await expect(q.run(async () => 'next')).resolves.toBe('next');
  });
});
