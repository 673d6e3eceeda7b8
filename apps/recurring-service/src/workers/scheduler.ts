import { randomUUID } from 'node:crypto';
import { periodicTick } from '@inv/runtime';
import type { RecurringDeps } from '../support/deps';
import { runDueSchedules } from '../usecases/run-due-schedules';

/**
 * Ticks at start and every `tickMs` (`periodicTick`: a tick still running when the next is due is not doubled). The
 * schedule state lives in MongoDB only, so a restarted replica simply ticks again and catches up.
 */
export function scheduler(deps: RecurringDeps, opts: { tickMs: number; concurrency: number; perSchedule?: number }) {
  // a run claimed by this replica names it; a new process is a new owner (its predecessor's claims expire)
  const owner = `${process.pid}-${randomUUID()}`;
  const loop = periodicTick({
    everyMs: opts.tickMs,
    run: (signal) => runDueSchedules(deps, { owner, concurrency: opts.concurrency, perSchedule: opts.perSchedule, signal }),
    onError: (err) => deps.logger.error({ err }, 'recurring scheduler tick failed'),
  });

  return {
    owner,
    /** One tick now (tests call it after moving the clock); answers the runs that advanced a schedule. */
    tick: async (): Promise<number> => (await loop.tick()) ?? 0,
    start() {
      void loop.start();
    },
    stop: () => loop.stop(),
  };
}
export type Scheduler = ReturnType<typeof scheduler>;
