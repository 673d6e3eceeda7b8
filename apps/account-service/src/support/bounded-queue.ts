import { AppError } from '@inv/service-kit';

/**
 * Runs at most `concurrency` tasks at once and lets at most `maxQueued` more wait; beyond that a task is refused
 * at once with 503 (code `busyCode`, `retry_after` seconds in the problem, which the route sends as Retry-After).
 * For work that costs a core while it runs (image processing): a burst waits here instead of starving the event
 * loop and libuv's thread pool that every other request needs.
 */
export function boundedQueue(opts: { concurrency: number; maxQueued: number; busyCode: string; what: string; retryAfterSeconds: number }) {
  let running = 0;
  const waiting: Array<() => void> = [];
  const next = () => {
    running--;
    const start = waiting.shift();
    if (start) {
      running++;
      start();
    }
  };
  return {
    get running() {
      return running;
    },
    get queued() {
      return waiting.length;
    },
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (running >= opts.concurrency) {
        if (waiting.length >= opts.maxQueued)
          throw new AppError('unavailable', `too many ${opts.what} are being processed; retry in ${opts.retryAfterSeconds} s`, {
            code: opts.busyCode,
            extra: { retry_after: opts.retryAfterSeconds },
          });
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else running++;
      try {
        return await task();
      } finally {
        next();
      }
    },
  };
}
export type BoundedQueue = ReturnType<typeof boundedQueue>;
