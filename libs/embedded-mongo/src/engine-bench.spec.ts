import { measureEngine } from './engine-bench';
import { Collection } from './storage/collection';

describe('index-backed lookups', () => {
  it('serves 10,000 unique-index inserts and 10,000 lookups by that field without scanning', () => {
    const scans = jest.spyOn(Collection.prototype, 'all');
    try {
      const { insertMs, findMs } = measureEngine(10_000);
      // Deterministic: not one lookup fell back to reading the whole collection.
      expect(scans).not.toHaveBeenCalled();
      // Loose wall-clock guard (the machine is shared): a scan per lookup would be ~50 million
      // document tests, far beyond this even on an idle machine.
      expect(insertMs).toBeLessThan(10_000);
      expect(findMs).toBeLessThan(10_000);
    } finally {
      scans.mockRestore();
    }
  });
});
