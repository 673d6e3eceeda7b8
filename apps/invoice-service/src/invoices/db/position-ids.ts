import { LRUCache } from 'lru-cache';
import type { CompanyId } from '@inv/contracts';
import type { Counters } from '@inv/runtime';

/**
 * Position ids, numbered per company (counter `position:<company>`) so that no id tells a company how many
 * positions other companies wrote. Taken in blocks (one counter round trip per block; ids left in a block when the
 * process stops or forgets the company are never used: gaps, never duplicates). A company whose positions were
 * numbered by the former global counter continues after its largest id.
 */
export function positionIdsPerCompany(counters: Counters, maxExisting: (companyId: CompanyId) => Promise<number>, blockSize = 20) {
  // lru-cache bounds the per-company allocators of one process; a forgotten company only skips the rest of its block
  const allocators = new LRUCache<string, Promise<() => Promise<number>>>({ max: 10_000 });
  return (companyId: CompanyId): Promise<number> => {
    let allocator = allocators.get(companyId);
    if (!allocator) {
      const name = `position:${companyId}`;
      allocator = counters.startAbove(name, () => maxExisting(companyId)).then(() => counters.inBlocks(name, blockSize));
      allocator.catch(() => allocators.delete(companyId));
      allocators.set(companyId, allocator);
    }
    return allocator.then((next) => next());
  };
}
