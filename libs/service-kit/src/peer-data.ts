import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Redis } from 'ioredis';
import type { Logger } from './logger';
import { openRedis } from './redis';

/**
 * Copies of another service's data, kept by a reader for as long as a change token in Redis says the data has
 * not changed: read-your-writes caching across services, without a round trip to the owner.
 *
 * - The owner deletes the token of what a change touched after the change has committed and before it answers
 *   (`invalidatePeerData`), so a client that saw the change answered can never be served the old copy.
 * - A reader reads the token first (creating one when there is none: `SET NX GET`) and the data after it; it keeps
 *   the data beside that token, and uses the copy only while Redis still holds the same token. A change whose
 *   commit came before the token was read is in the data read after it; a later one deletes the token.
 * - Without an answer from Redis the reader asks the owner, as it would without a cache, and keeps nothing.
 * - A copy outlives a change only when the token could not be deleted after the commit (Redis unreachable to the
 *   owner but not to the reader, which the owner logs; the owner stopped in between) or a Redis failover lost the
 *   deletion: for at most `ttlMs`. A reader drops its copies whenever its own connection is re-established.
 *
 * Keys carry the client's keyPrefix (REDIS_PREFIX, shared by the services of one deployment).
 */
export const peerDataKeys = {
  /** The seller profile of a company (account-service owns it; invoice-service copies it). */
  seller: (companyId: string) => `peer-data:seller:${companyId}`,
  /** A customer's billing data (customer-service owns it; invoice-service copies it). */
  buyer: (companyId: string, customerId: number) => `peer-data:buyer:${companyId}:${customerId}`,
};

/**
 * A token lives 10 minutes from its creation (about 150 bytes of Redis per seller or customer looked up meanwhile:
 * Redis runs with noeviction, so nothing may grow without bound); then the next lookup makes a new one and loads
 * once. Copies are used for at most PEER_DATA_CACHE_TTL_MS (30 s by default) anyway.
 */
const TOKEN_TTL_SECONDS = 600;

/**
 * For an owner: deletes the tokens of what a committed change touched. Never throws, and waits at most `waitMs` (a
 * request must not hang on Redis: ioredis retries a command while it reconnects, which took 6 s with Redis down).
 */
export async function invalidatePeerData(redis: Redis, keys: string[], logger: Logger, waitMs = 500): Promise<void> {
  if (keys.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  try {
    const deleted = redis.del(...keys);
    deleted.catch(() => undefined); // when the timeout wins, its later failure is already reported
    await Promise.race([
      deleted,
      new Promise((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer from Redis within ${waitMs} ms`)), waitMs);
      }),
    ]);
  } catch (err) {
    logger.warn(
      { err: (err as Error).message, keys },
      'could not invalidate cached copies of changed data; readers use theirs for at most PEER_DATA_CACHE_TTL_MS',
    );
  } finally {
    clearTimeout(timer);
  }
}

/**
 * For a reader: a Redis client that fails at once rather than queueing while Redis is unreachable (the reader then
 * asks the owner), answers within `commandTimeoutMs`, and sends the tokens of concurrent lookups in one write.
 */
export function openPeerDataRedis(url: string, keyPrefix: string, commandTimeoutMs = 250): Redis {
  return openRedis(url, {
    keyPrefix,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: commandTimeoutMs,
    enableAutoPipelining: true,
  });
}

export type PeerDataOutcome = 'hit' | 'miss' | 'bypass';

export interface PeerDataCacheOptions {
  /** Absent: every lookup loads (tests, or a service configured without the cache). */
  redis?: Redis;
  /** Longest a copy is used (bounds staleness only when an owner could not reach Redis); 0 disables the cache. */
  ttlMs: number;
  /** Most copies kept (LRU). */
  max: number;
  logger: Logger;
  /** Called once per lookup (metrics). */
  onLookup?: (kind: string, outcome: PeerDataOutcome) => void;
}

export interface PeerDataCache {
  /**
   * The copy kept under `key` while its token is unchanged, else `load()`'s answer (kept when `keep` says so; a
   * `found: false` answer, say, is better asked again). Copies are frozen: callers must not change them.
   */
  get<T extends object>(kind: string, key: string, load: () => Promise<T>, keep?: (value: T) => boolean): Promise<T>;
}

export function createPeerDataCache(opts: PeerDataCacheOptions): PeerDataCache {
  const copies = new LRUCache<string, { token: string; value: object }>({ max: opts.max, ttl: Math.max(1, opts.ttlMs) });
  const enabled = opts.redis !== undefined && opts.ttlMs > 0;
  let lastWarning = 0;
  // Whenever the connection is (re)established, the copies made before go: while Redis was unreachable, an owner may
  // have failed to delete a token that Redis (restarted from its append-only file) still holds.
  opts.redis?.on('ready', () => copies.clear());

  async function tokenOf(key: string): Promise<string | undefined> {
    const fresh = randomUUID();
    try {
      // the existing token, or none (null) and then ours is set
      const existing = await opts.redis!.set(key, fresh, 'EX', TOKEN_TTL_SECONDS, 'NX', 'GET');
      return existing ?? fresh;
    } catch (err) {
      if (Date.now() - lastWarning > 60_000) {
        lastWarning = Date.now();
        opts.logger.warn({ err: (err as Error).message }, 'peer data cache: Redis does not answer; asking the owning services meanwhile');
      }
      return undefined;
    }
  }

  return {
    async get(kind, key, load, keep = () => true) {
      if (!enabled) {
        opts.onLookup?.(kind, 'bypass');
        return load();
      }
      const token = await tokenOf(key);
      if (token === undefined) {
        opts.onLookup?.(kind, 'bypass');
        return load();
      }
      const copy = copies.get(key);
      if (copy?.token === token) {
        opts.onLookup?.(kind, 'hit');
        return copy.value as Awaited<ReturnType<typeof load>>;
      }
      opts.onLookup?.(kind, 'miss');
      const value = await load();
      if (keep(value)) copies.set(key, { token, value: deepFreeze(value) });
      else {
        copies.delete(key);
        // no token stays for what is not kept (an unknown customer id, say), so that requests for made-up ids cannot
        // fill Redis; deleting a token is always safe: it only makes readers load again
        opts.redis!.del(key).catch(() => undefined);
      }
      return value;
    },
  };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
