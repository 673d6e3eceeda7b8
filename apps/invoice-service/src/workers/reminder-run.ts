import { randomUUID } from 'node:crypto';
import { periodicTick } from '@inv/runtime';
import { runReminders, type RunCounts } from '../receivables';
import type { InvoiceDeps } from '../deps';

/**
 * The daily reminder run on a clock (`periodicTick`): ticks at start and every `tickMs` (default hourly); each tick
 * does the run of the current UTC day for the companies whose day is not claimed yet, so a day's run happens at the
 * first tick of the day on whichever replica comes first. A tick still running when the next is due is not doubled.
 * `tick()` runs it now (tests move `deps.now` and call it).
 */
export function reminderRun(
  deps: InvoiceDeps,
  opts: { tickMs: number; logger: { warn: (o: object, m: string) => void; error: (o: object, m: string) => void } },
) {
  const owner = `${process.pid}-${randomUUID()}`;
  const loop = periodicTick<RunCounts>({
    everyMs: opts.tickMs,
    run: () => runReminders(deps, owner, opts.logger),
    onError: (err) => opts.logger.error({ err }, 'the daily reminder run failed (the next tick tries again)'),
  });
  return {
    owner,
    tick: () => loop.tick(),
    start() {
      void loop.start();
    },
    stop: () => loop.stop(),
  };
}
export type ReminderRun = ReturnType<typeof reminderRun>;
