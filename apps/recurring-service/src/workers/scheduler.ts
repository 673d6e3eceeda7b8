import { randomUUID } from 'node:crypto';
import { runDueSchedules } from '../usecases/run-due-schedules';
import type { RecurringDeps } from './deps';

/**
 * Ticks at start and every `tickMs`; a tick still running when the next is due is not doubled. The schedule
 * state lives in MongoDB only, so a restarted replica simply ticks again and catches up.
 */
export function scheduler(deps: RecurringDeps, opts: { tickMs: number; concurrency: number; perSchedule?: number }) {
  // a run claimed by this replica names it; a new process is a new owner (its predecessor's claims expire)
  const owner = `${process.pid}-${randomUUID()}`;
  const stopping = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<number> | undefined;

  const tick = (): Promise<number> => {
    if (current) return current;
    current = runDueSchedules(deps, { owner, concurrency: opts.concurrency, perSchedule: opts.perSchedule, signal: stopping.signal })
      .catch((err: unknown) => {
        deps.logger.error({ err }, 'recurring scheduler tick failed');
        return 0;
      })
      .finally(() => {
        current = undefined;
      });
    return current;
  };

  return {
    owner,
    /** One tick now (tests call it after moving the clock); answers the runs that advanced a schedule. */
    tick,
    start() {
      void tick();
      timer = setInterval(() => void tick(), opts.tickMs);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      stopping.abort();
      await current;
    },
  };
}
export type Scheduler = ReturnType<typeof scheduler>;
