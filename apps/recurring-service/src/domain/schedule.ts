import { RECURRING_START_MAX_FUTURE_YEARS, RECURRING_START_MAX_PAST_DAYS, type RecurringSchedule } from '@inv/contracts';

/**
 * Schedule arithmetic on calendar dates (YYYY-MM-DD, no time zone: a run date is a date of the company's
 * calendar and the scheduler compares it with today's UTC date). Runs are numbered: run k falls in the month
 * `k * step` months after the start date's month, on day_of_month (or that month's last day), and run 0 is
 * skipped when it falls before the start date. Each run bills the period from its date to the day before the
 * next run (cut at end_date).
 *
 * Small enough that a date library would add more than it saves: the only operations are "days in a month"
 * and "one day before", both exact with Date.UTC.
 */

const STEP_MONTHS = { monthly: 1, quarterly: 3, yearly: 12 } as const;

export interface Period {
  start: string;
  end: string;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const format = (y: number, month0: number, day: number) => `${pad(y, 4)}-${pad(month0 + 1)}-${pad(day)}`;
const parts = (date: string) => {
  const [y, m, d] = date.split('-').map(Number);
  return { y, month0: m - 1, d };
};

/** Days in a month (month0: 0 = January); Date.UTC with day 0 is the last day of the month before. */
export const daysInMonth = (y: number, month0: number) => new Date(Date.UTC(y, month0 + 1, 0)).getUTCDate();

/** The date one day before `date`. */
export function dayBefore(date: string): string {
  const { y, month0, d } = parts(date);
  const t = new Date(Date.UTC(y, month0, d - 1));
  return format(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate());
}

/** The date of occurrence k (k ≥ 0) counted from the start date's month, ignoring the start day and end date. */
export function occurrence(s: Pick<RecurringSchedule, 'interval' | 'day_of_month' | 'start_date'>, k: number): string {
  const start = parts(s.start_date);
  const months = start.month0 + k * STEP_MONTHS[s.interval];
  const y = start.y + Math.floor(months / 12);
  const month0 = months % 12;
  const last = daysInMonth(y, month0);
  return format(y, month0, s.day_of_month === 'last' ? last : Math.min(s.day_of_month, last));
}

/** The index of the first run: the first occurrence on or after start_date. */
export function firstIndex(s: RecurringSchedule): number {
  return occurrence(s, 0) >= s.start_date ? 0 : 1;
}

/** The date of run k, or null when it falls after end_date (the schedule has ended). */
export function runDate(s: RecurringSchedule, k: number): string | null {
  const date = occurrence(s, k);
  return s.end_date !== undefined && date > s.end_date ? null : date;
}

/** The service period run k bills: its date to the day before the next run, at most to end_date. */
export function periodOf(s: RecurringSchedule, k: number): Period {
  const start = occurrence(s, k);
  const untilNext = dayBefore(occurrence(s, k + 1));
  return { start, end: s.end_date !== undefined && s.end_date < untilNext ? s.end_date : untilNext };
}

/** Largest run index ever computed: 10,000 years of monthly runs (dates are at most 9999-12-31). */
const MAX_INDEX = 12 * 10_000;

/**
 * The index of the first run after `after` (a date already billed, or undefined): used when a schedule is
 * created or changed, so that a new schedule never bills a period twice that a previous one already covered.
 */
export function firstIndexAfter(s: RecurringSchedule, after: string | undefined): number {
  let k = firstIndex(s);
  if (after === undefined) return k;
  // skip whole steps arithmetically, then walk the last few (day_of_month may move the date within a month)
  const from = parts(s.start_date);
  const to = parts(after);
  const monthsBetween = (to.y - from.y) * 12 + (to.month0 - from.month0);
  k = Math.max(k, Math.floor(monthsBetween / STEP_MONTHS[s.interval]) - 1);
  while (k < MAX_INDEX && occurrence(s, k) <= after) k++;
  return k;
}

/** Today's date in UTC. */
export const dateOf = (at: Date) => at.toISOString().slice(0, 10);

/** The earliest and the latest start_date accepted on `today` (RECURRING_START_MAX_PAST_DAYS / _FUTURE_YEARS). */
export function startDateBounds(today: string): { earliest: string; latest: string } {
  const { y, month0, d } = parts(today);
  const earliest = new Date(Date.UTC(y, month0, d - RECURRING_START_MAX_PAST_DAYS));
  const latest = new Date(Date.UTC(y + RECURRING_START_MAX_FUTURE_YEARS, month0, d));
  const iso = (t: Date) => format(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate());
  return { earliest: iso(earliest), latest: iso(latest) };
}

/**
 * Why a start_date is refused on `today`, or null: more than RECURRING_START_MAX_PAST_DAYS back would issue the
 * periods since then as a catch-up (years of invoices, each with a permanent number), and one more than
 * RECURRING_START_MAX_FUTURE_YEARS ahead is a typing error rather than a plan.
 */
export function startDateProblem(startDate: string, today: string): string | null {
  const { earliest, latest } = startDateBounds(today);
  if (startDate < earliest)
    return `must not be more than ${RECURRING_START_MAX_PAST_DAYS} days in the past (earliest ${earliest}); missed periods are issued as invoices`;
  if (startDate > latest) return `must not be more than ${RECURRING_START_MAX_FUTURE_YEARS} years in the future (latest ${latest})`;
  return null;
}
