import { measureEngine } from './engine-bench';

describe('index-backed lookups', () => {
  it('serves 10,000 unique-index inserts and 10,000 lookups by that field without scanning', () => {
    // A collection scan per operation would be ~50 million document tests: many seconds.
    const { insertMs, findMs } = measureEngine(10_000);
    expect(insertMs).toBeLessThan(2000);
    expect(findMs).toBeLessThan(2000);
  });
});
