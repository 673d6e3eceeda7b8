import type { RecurringSchedule } from '@inv/contracts';
import { RecurringSchedule as ScheduleSchema } from '@inv/contracts';
import { dayBefore, firstIndex, firstIndexAfter, occurrence, periodOf, runDate, startDateBounds, startDateProblem } from './schedule';

const runs = (s: RecurringSchedule, n: number) => {
  const out: string[] = [];
  for (let k = firstIndex(s); out.length < n; k++) {
    const d = runDate(s, k);
    if (d === null) break;
    out.push(d);
  }
  return out;
};

describe('schedule arithmetic', () => {
  it('bills a monthly run on the 1st for the whole month', () => {
    const s: RecurringSchedule = { interval: 'monthly', day_of_month: 1, start_date: '2026-12-01' };
    expect(runs(s, 3)).toEqual(['2026-12-01', '2027-01-01', '2027-02-01']);
    expect(periodOf(s, 0)).toEqual({ start: '2026-12-01', end: '2026-12-31' });
    expect(periodOf(s, 2)).toEqual({ start: '2027-02-01', end: '2027-02-28' });
  });

  it('starts at the first day_of_month on or after start_date', () => {
    expect(runs({ interval: 'monthly', day_of_month: 15, start_date: '2026-11-20' }, 2)).toEqual(['2026-12-15', '2027-01-15']);
    expect(runs({ interval: 'monthly', day_of_month: 20, start_date: '2026-11-20' }, 1)).toEqual(['2026-11-20']);
    expect(periodOf({ interval: 'monthly', day_of_month: 15, start_date: '2026-11-20' }, 1)).toEqual({
      start: '2026-12-15',
      end: '2027-01-14',
    });
  });

  it('takes the last day of every month with "last" (31, 28/29 in February, 30)', () => {
    const s: RecurringSchedule = { interval: 'monthly', day_of_month: 'last', start_date: '2027-01-31' };
    expect(runs(s, 4)).toEqual(['2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30']);
    expect(periodOf(s, 1)).toEqual({ start: '2027-02-28', end: '2027-03-30' });
  });

  it('knows leap years: February 2028 has 29 days, 2100 is no leap year, 2000 was', () => {
    expect(runs({ interval: 'monthly', day_of_month: 'last', start_date: '2028-02-01' }, 2)).toEqual(['2028-02-29', '2028-03-31']);
    expect(occurrence({ interval: 'yearly', day_of_month: 'last', start_date: '2100-02-01' }, 0)).toBe('2100-02-28');
    expect(occurrence({ interval: 'yearly', day_of_month: 'last', start_date: '2000-02-01' }, 0)).toBe('2000-02-29');
    expect(dayBefore('2028-03-01')).toBe('2028-02-29');
    expect(dayBefore('2027-01-01')).toBe('2026-12-31');
  });

  it('refuses day 31 and points to "last"', () => {
    const r = ScheduleSchema.safeParse({ interval: 'monthly', day_of_month: 31, start_date: '2027-01-31' });
    expect(r.success).toBe(false);
    expect(JSON.stringify(r.error?.issues)).toContain('use \\"last\\"');
    expect(ScheduleSchema.safeParse({ interval: 'monthly', day_of_month: 0, start_date: '2027-01-01' }).success).toBe(false);
    expect(ScheduleSchema.safeParse({ interval: 'monthly', day_of_month: 'last', start_date: '2027-01-01' }).success).toBe(true);
  });

  it('runs quarterly from the start month, with quarter-long periods', () => {
    const s: RecurringSchedule = { interval: 'quarterly', day_of_month: 1, start_date: '2026-11-15' };
    expect(runs(s, 3)).toEqual(['2027-02-01', '2027-05-01', '2027-08-01']);
    expect(periodOf(s, 1)).toEqual({ start: '2027-02-01', end: '2027-04-30' });
    expect(runs({ interval: 'quarterly', day_of_month: 'last', start_date: '2026-11-30' }, 4)).toEqual([
      '2026-11-30',
      '2027-02-28',
      '2027-05-31',
      '2027-08-31',
    ]);
  });

  it('runs yearly, a licence from 29 February following the month end', () => {
    const s: RecurringSchedule = { interval: 'yearly', day_of_month: 'last', start_date: '2028-02-29' };
    expect(runs(s, 3)).toEqual(['2028-02-29', '2029-02-28', '2030-02-28']);
    expect(periodOf(s, 0)).toEqual({ start: '2028-02-29', end: '2029-02-27' });
    expect(runs({ interval: 'yearly', day_of_month: 1, start_date: '2026-12-01' }, 2)).toEqual(['2026-12-01', '2027-12-01']);
  });

  it('stops after end_date and cuts the last period at it', () => {
    const s: RecurringSchedule = { interval: 'monthly', day_of_month: 1, start_date: '2026-12-01', end_date: '2027-02-15' };
    expect(runs(s, 10)).toEqual(['2026-12-01', '2027-01-01', '2027-02-01']);
    expect(runDate(s, 3)).toBeNull();
    expect(periodOf(s, 2)).toEqual({ start: '2027-02-01', end: '2027-02-15' });
    // an end date before the first run: nothing to issue
    expect(runDate({ interval: 'monthly', day_of_month: 20, start_date: '2026-12-01', end_date: '2026-12-10' }, 0)).toBeNull();
    expect(
      ScheduleSchema.safeParse({ interval: 'monthly', day_of_month: 1, start_date: '2027-01-01', end_date: '2026-12-31' }).success,
    ).toBe(false);
  });

  it('continues a changed schedule after the last period billed', () => {
    const s: RecurringSchedule = { interval: 'monthly', day_of_month: 1, start_date: '2026-01-01' };
    expect(occurrence(s, firstIndexAfter(s, '2026-11-30'))).toBe('2026-12-01');
    expect(occurrence(s, firstIndexAfter(s, undefined))).toBe('2026-01-01');
    const q: RecurringSchedule = { interval: 'quarterly', day_of_month: 'last', start_date: '2020-01-01' };
    expect(occurrence(q, firstIndexAfter(q, '2026-10-30'))).toBe('2026-10-31');
    expect(occurrence(q, firstIndexAfter(q, '2026-10-31'))).toBe('2027-01-31');
  });

  it('accepts a start_date from a year back to ten years ahead', () => {
    expect(startDateBounds('2026-11-15')).toEqual({ earliest: '2025-11-15', latest: '2036-11-15' });
    // across a leap day: 365 days before 2028-03-01 is 2027-03-02
    expect(startDateBounds('2028-03-01').earliest).toBe('2027-03-02');
    expect(startDateProblem('2025-11-15', '2026-11-15')).toBeNull();
    expect(startDateProblem('2036-11-15', '2026-11-15')).toBeNull();
    expect(startDateProblem('2025-11-14', '2026-11-15')).toContain('earliest 2025-11-15');
    expect(startDateProblem('0001-01-01', '2026-11-15')).toContain('365 days');
    expect(startDateProblem('2036-11-16', '2026-11-15')).toContain('latest 2036-11-15');
  });
});
