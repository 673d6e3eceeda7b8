import { MONTHLY_LIMIT, monthKey, resetDate } from './quota';

describe('quota calendar', () => {
  it('keys by UTC month and resets on the first of the next month', () => {
    expect(monthKey(new Date('2026-11-30T23:59:59Z'))).toBe('2026-11');
    expect(resetDate(new Date('2026-11-30T23:59:59Z'))).toBe('2026-12-01');
    expect(resetDate(new Date('2026-12-15T00:00:00Z'))).toBe('2027-01-01');
    expect(resetDate(new Date('2028-02-29T12:00:00Z'))).toBe('2028-03-01');
  });
  it('has the limits of the specification', () => {
    expect(MONTHLY_LIMIT).toEqual({ free: 3, pro: 100 });
  });
});
