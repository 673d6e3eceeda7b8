import { NumberingPattern } from '@inv/contracts';
import { formatNumber, periodKeyOf, resetProblem } from './number-patterns';

describe('numbering patterns', () => {
  const at = new Date('2026-03-07T23:30:00Z');

  it('fills date placeholders from the UTC date and pads {SEQ:n}', () => {
    expect(formatNumber('RE-{YYYY}-{SEQ:5}', at, 42)).toBe('RE-2026-00042');
    expect(formatNumber('{YY}{MM}{DD}-{SEQ}', at, 7)).toBe('260307-7');
    expect(formatNumber('R{SEQ:3}', at, 12345)).toBe('R12345'); // never cut
    expect(formatNumber('{SEQ}', at, 1)).toBe('1');
  });

  it('starts a new period by year or month, or never', () => {
    expect(periodKeyOf('yearly', at)).toBe('2026');
    expect(periodKeyOf('monthly', at)).toBe('2026-03');
    expect(periodKeyOf('never', at)).toBe('all');
  });

  it('accepts patterns with exactly one sequence placeholder and known placeholders only', () => {
    for (const ok of ['RE-{YYYY}-{SEQ:5}', '{SEQ}', 'INV/{YY}/{MM}/{SEQ:4}', 'A{SEQ:1}B'])
      expect([ok, NumberingPattern.safeParse(ok).success]).toEqual([ok, true]);
    for (const bad of [
      'RE-{YYYY}',
      '',
      '{SEQ}{SEQ}',
      'RE-{YEAR}-{SEQ}',
      '{SEQ:0}',
      '{SEQ:13}',
      'RE<{SEQ}>',
      'RE-{SEQ',
      'x'.repeat(60) + '{SEQ}',
    ]) {
      expect([bad, NumberingPattern.safeParse(bad).success]).toEqual([bad, false]);
    }
  });

  it('refuses reset periods that would repeat numbers', () => {
    expect(resetProblem({ pattern: 'RE-{SEQ}', reset: 'yearly' })).toMatch(/yearly/);
    expect(resetProblem({ pattern: 'RE-{YYYY}-{SEQ}', reset: 'monthly' })).toMatch(/monthly/);
    expect(resetProblem({ pattern: 'RE-{YY}{MM}-{SEQ}', reset: 'monthly' })).toBeUndefined();
    expect(resetProblem({ pattern: 'RE-{SEQ}', reset: 'never' })).toBeUndefined();
    expect(resetProblem({ pattern: 'RE-{YYYY}-{SEQ}', reset: 'yearly' })).toBeUndefined();
  });
});
