import { randomUUID } from 'node:crypto';
import { runReminders, type RunCounts } from '../receivables';
import type { InvoiceDeps } from '../deps';

/**
 * The daily reminder run on a timer: ticks at start and every `tickMs` (default hourly); each tick does the run of the
 * current UTC day for the companies whose day is not claimed yet, so a day's run happens at the first tick of the day
 * on whichever replica comes first. A tick still running when the next is due is not doubled. `tick()` runs it now
 * (tests move `deps.now` and call it).
 */
export function reminderRun(
  deps: InvoiceDeps,
  opts: { tickMs: number; logger: { warn: (o: object, m: string) => void; error: (o: object, m: string) => void } },
) {
  const owner = `${process.pid}-${randomUUID()}`;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<RunCounts | undefined> | undefined;
  const tick = (): Promise<RunCounts | undefined> => {
    if (current) return current;
    current = runReminders(deps, owner, opts.logger)
      .catch((err: unknown) => {
        opts.logger.error({ err }, 'the daily reminder run failed (the next tick tries again)');
        return undefined;
      })
      .finally(() => {
        current = undefined;
      });
    return current;
  };
  return {
    owner,
    tick,
    start() {
      if (opts.tickMs <= 0) return;
      void tick();
      timer = setInterval(() => void tick(), opts.tickMs);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      await current;
    },
  };
}
export type ReminderRun = ReturnType<typeof reminderRun>;
