import { fiscalYearEndOf, fiscalYearStartOf, splitByFiscalYear } from './fiscal-year';

describe('fiscal years', () => {
  it('finds the fiscal year of a date for any start month', () => {
    expect(fiscalYearStartOf('2026-03-15', 1)).toBe('2026-01-01');
    expect(fiscalYearStartOf('2026-03-15', 7)).toBe('2025-07-01');
    expect(fiscalYearStartOf('2026-07-01', 7)).toBe('2026-07-01');
    expect(fiscalYearEndOf('2025-07-01')).toBe('2026-06-30');
    expect(fiscalYearEndOf('2024-03-01')).toBe('2025-02-28');
  });

  it('keeps a period inside one fiscal year whole', () => {
    expect(splitByFiscalYear('2026-02-01', '2026-11-30', 1)).toEqual([
      { fiscalYearStart: '2026-01-01', from: '2026-02-01', to: '2026-11-30' },
    ]);
  });

  it('splits a period at every fiscal-year boundary', () => {
    expect(splitByFiscalYear('2025-10-01', '2026-03-31', 1)).toEqual([
      { fiscalYearStart: '2025-01-01', from: '2025-10-01', to: '2025-12-31' },
      { fiscalYearStart: '2026-01-01', from: '2026-01-01', to: '2026-03-31' },
    ]);
    expect(splitByFiscalYear('2025-05-01', '2026-08-31', 7)).toEqual([
      { fiscalYearStart: '2024-07-01', from: '2025-05-01', to: '2025-06-30' },
      { fiscalYearStart: '2025-07-01', from: '2025-07-01', to: '2026-06-30' },
      { fiscalYearStart: '2026-07-01', from: '2026-07-01', to: '2026-08-31' },
    ]);
    expect(splitByFiscalYear('2016-01-01', '2025-12-31', 1)).toHaveLength(10);
  });
});
