import { setTimeout as sleep } from 'node:timers/promises';

export interface DutyCycle {
  /** Runs `work` once no other work of this gate runs and the rest after the previous one is over. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Resolves when the work started so far is over and so is its rest (what the next run would wait for). */
  idle(): Promise<void>;
}

/**
 * A gate for background work that takes CPU in bursts (reading and validating a received document): one at a time,
 * and after each a rest as long as the work took times (1 / share - 1), so that on average the work keeps to `share`
 * of one core and what needs the CPU meanwhile (a finalization) finds it. The time is the work's wall time, so on a
 * busy machine, where the work is slower, the rests grow with it. share 1: no rest.
 */
export function dutyCycle(share: number, now: () => number = () => performance.now()): DutyCycle {
  const restFactor = share >= 1 ? 0 : 1 / share - 1;
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run<T>(work: () => Promise<T>): Promise<T> {
      let rest = 0;
      const result = tail.then(async () => {
        const started = now();
        try {
          return await work();
        } finally {
          rest = (now() - started) * restFactor;
        }
      });
      const ignore = () => undefined;
      tail = result.then(ignore, ignore).then(() => (rest > 0 ? sleep(rest) : undefined));
      return result;
    },
    idle: () => tail.then(() => undefined),
  };
}
