import { dateOf } from '../domain/schedule';
import type { ScheduleDoc } from '../db/schedules';
import type { RecurringDeps } from '../support/deps';
import { issueRun } from './issue-run';

/** Schedules read per query of a tick. */
const BATCH = 100;
/**
 * Periods one schedule issues in one tick at most, by default (RECURRING_CATCH_UP_PER_TICK): a schedule far behind
 * (resumed after a long pause) catches up a few periods per tick, oldest first, instead of issuing dozens of
 * invoices, each with a permanent number, in one burst. The rest are issued at the next ticks; the run claims keep
 * each period single.
 */
export const DEFAULT_RUNS_PER_TICK = 3;

/**
 * One tick of the scheduler: every active schedule whose next run is due today or earlier issues its runs,
 * oldest period first (a catch-up after downtime issues each missed period once, in order). Schedules are worked
 * on `concurrency` at a time; several replicas may tick at once, the run claims keep each period single.
 * Answers how many runs advanced a schedule.
 */
export async function runDueSchedules(
  deps: RecurringDeps,
  opts: { owner: string; concurrency: number; signal?: AbortSignal; batch?: number; perSchedule?: number },
) {
  const today = dateOf(deps.now());
  let advanced = 0;
  // a schedule worked on in this tick may still be due (a catch-up longer than perSchedule): not twice
  const seen = new Set<string>();
  let after: { nextRunDate: string; _id: string } | undefined;
  for (;;) {
    const page = await deps.schedules.dueAcrossCompanies(today, opts.batch ?? BATCH, after);
    if (!page.length || opts.signal?.aborted) return advanced;
    const last = page[page.length - 1];
    after = { nextRunDate: last.nextRunDate ?? today, _id: last._id };
    const due = page.filter((s) => !seen.has(s._id));
    due.forEach((s) => seen.add(s._id));
    let next = 0;
    const worker = async () => {
      while (next < due.length && !opts.signal?.aborted) {
        const schedule = due[next++];
        try {
          advanced += await catchUp(deps, schedule, today, { ...opts, perSchedule: opts.perSchedule ?? DEFAULT_RUNS_PER_TICK });
        } catch (err) {
          deps.logger.error(
            { err, companyId: schedule.companyId, recurringId: schedule.id },
            'recurring schedule failed; retried at the next tick',
          );
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(opts.concurrency, due.length) }, worker));
  }
}

async function catchUp(
  deps: RecurringDeps,
  first: ScheduleDoc,
  today: string,
  opts: { owner: string; perSchedule: number; signal?: AbortSignal },
) {
  let schedule: ScheduleDoc | null = first;
  let advanced = 0;
  while (
    schedule &&
    schedule.status === 'active' &&
    schedule.nextRunDate !== null &&
    schedule.nextRunDate <= today &&
    advanced < opts.perSchedule &&
    !opts.signal?.aborted
  ) {
    if ((await issueRun(deps, schedule, opts.owner, opts.signal)) !== 'advanced') break;
    advanced++;
    schedule = await deps.schedules.get(schedule.companyId, schedule.id);
  }
  return advanced;
}
