import type { CompanyId } from '@inv/contracts';
import { LRUCache } from 'lru-cache';
import type { InvoiceDoc } from './invoices';

/**
 * Drafts as this process last wrote their positions, for a few seconds. An integrator adds a draft's
 * positions one request after the other; each request read the draft it had just written. A copy from here is
 * only a starting point: the write that follows is conditional on the draft's `updatedAt` (and on it being a
 * draft nobody is finalizing), which every change of an invoice moves, so a copy that another request or replica
 * made stale cannot overwrite anything; `changePositions` then reads the draft and tries again.
 *
 * Bounded by entries and by positions held (a draft has at most MAX_POSITIONS of them), so a large draft cannot
 * make it grow: `maxPositions` of ~300 bytes each.
 */
export interface DraftCache {
  get(companyId: CompanyId, id: number): InvoiceDoc | undefined;
  remember(invoice: InvoiceDoc): void;
  forget(companyId: CompanyId, id: number): void;
}

export interface DraftCacheOptions {
  /** How long a copy is used (ms); 0 turns the cache off. */
  ttlMs: number;
  maxEntries?: number;
  maxPositions?: number;
  /** The clock the TTL is measured on (tests). */
  now?: () => number;
}

const keyOf = (companyId: CompanyId, id: number) => `${companyId}\u0000${id}`;

export function draftCache({ ttlMs, maxEntries = 2_000, maxPositions = 20_000, now }: DraftCacheOptions): DraftCache {
  if (ttlMs <= 0) return { get: () => undefined, remember: () => undefined, forget: () => undefined };
  // lru-cache: TTL, recency and a size bound in one well-kept package (already the gateway's key cache)
  const cache = new LRUCache<string, InvoiceDoc>({
    max: maxEntries,
    ttl: ttlMs,
    maxSize: maxPositions,
    sizeCalculation: (inv) => inv.positions.length + 1,
    ...(now ? { perf: { now }, ttlResolution: 0 } : {}),
  });
  return {
    get: (companyId, id) => cache.get(keyOf(companyId, id)),
    remember: (invoice) => void cache.set(keyOf(invoice.companyId, invoice.id), invoice),
    forget: (companyId, id) => void cache.delete(keyOf(companyId, id)),
  };
}
