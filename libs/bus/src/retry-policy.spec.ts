import fc from 'fast-check';
import { assertDelays, decideOnFailure, reconnectDelay } from './retry-policy';

describe('decideOnFailure', () => {
  const delays = [50, 100];

  it('retries after each delay in turn, then parks', () => {
    expect(decideOnFailure(1, delays, false)).toEqual({ action: 'retry', delayMs: 50, nextAttempt: 2 });
    expect(decideOnFailure(2, delays, false)).toEqual({ action: 'retry', delayMs: 100, nextAttempt: 3 });
    expect(decideOnFailure(3, delays, false)).toEqual({ action: 'park', reason: 'exhausted' });
  });

  it('parks a permanent failure on the first attempt', () => {
    expect(decideOnFailure(1, delays, true)).toEqual({ action: 'park', reason: 'permanent' });
  });

  it('parks at once when there are no retries', () => {
    expect(decideOnFailure(1, [], false)).toEqual({ action: 'park', reason: 'exhausted' });
  });

  it('treats a garbled attempt as the first', () => {
    expect(decideOnFailure(0, delays, false)).toEqual({ action: 'retry', delayMs: 50, nextAttempt: 2 });
    expect(decideOnFailure(Number.NaN, delays, false)).toEqual({ action: 'retry', delayMs: 50, nextAttempt: 2 });
  });

  it('makes exactly delays.length + 1 attempts in all', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 100000 }), { maxLength: 8 }), (ds) => {
        let attempt = 1;
        let d = decideOnFailure(attempt, ds, false);
        while (d.action === 'retry') {
          expect(d.nextAttempt).toBe(attempt + 1);
          attempt = d.nextAttempt;
          d = decideOnFailure(attempt, ds, false);
        }
        return attempt === ds.length + 1;
      }),
    );
  });
});

describe('reconnectDelay', () => {
  it('follows the schedule and repeats the last value', () => {
    const s = [100, 500, 1000];
    expect([1, 2, 3, 4, 50].map((a) => reconnectDelay(a, s))).toEqual([100, 500, 1000, 1000, 1000]);
  });
});

describe('assertDelays', () => {
  it('accepts positive integers and refuses the rest', () => {
    expect(() => assertDelays('x', [1, 2], false)).not.toThrow();
    expect(() => assertDelays('x', [], true)).not.toThrow();
    expect(() => assertDelays('x', [], false)).toThrow(/empty/);
    expect(() => assertDelays('x', [0], true)).toThrow(/positive/);
    expect(() => assertDelays('x', [-5], true)).toThrow(/positive/);
  });
});
