import fc from 'fast-check';
import { percentile, summarize } from './stats';

describe('summarize', () => {
  it('computes nearest-rank percentiles and the median', () => {
    const s = summarize([5, 1, 3, 2, 4]);
    expect(s).toMatchObject({ n: 5, median: 3, min: 1, max: 5, mean: 3, p99: 5 });
    expect(summarize([1, 2, 3, 4]).median).toBe(2.5);
    expect(percentile([10, 20, 30, 40], 50)).toBe(20);
  });

  it('handles empty input', () => {
    expect(Number.isNaN(summarize([]).median)).toBe(true);
  });

  it('orders min <= median <= p99 <= max (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1e4, noNaN: true }), { minLength: 1 }), (xs) => {
        const s = summarize(xs);
        expect(s.min).toBeLessThanOrEqual(s.median);
        expect(s.median).toBeLessThanOrEqual(s.p99);
        expect(s.p99).toBeLessThanOrEqual(s.max);
      }),
    );
  });
});
