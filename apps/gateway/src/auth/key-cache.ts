import { LRUCache } from 'lru-cache';

export interface VerifiedKey {
  /** The company requests of the key work on: the live company's id, or its test twin's for a test key (docs/test-mode.md). */
  companyId: string;
  mode: 'live' | 'test';
  keyId: string;
  /** The role whose permissions the key carries. */
  role: string;
  plan: string;
  /** A member's access token (the dashboard): the member, and when the token ends (never cached beyond). */
  memberId?: string;
  expiresAt?: number;
}

export interface KeyCacheOptions {
  /** How long a verified key is trusted without asking account-service (default 30 s). */
  ttlMs: number;
  /** How long an unknown/revoked key is answered 401 without asking account-service (default 30 s). */
  negativeTtlMs: number;
  max?: number;
}

/**
 * In-process caches of the gateway, keyed by the SHA-256 of the API key (the key itself is never kept):
 * - verified keys -> identity, for `ttlMs`. A revocation evicts the key at once: locally when the
 *   DELETE passes through this replica, on every replica through the revocation event (Redis pub/sub);
 *   `ttlMs` only bounds staleness if an event is lost (and a lost subscription flushes the cache).
 * - unknown keys, for `negativeTtlMs`, so a repeated bad key costs no account-service round trip.
 * Both are bounded LRUs, so a flood of random keys cannot grow memory.
 */
export function createKeyCache(opts: KeyCacheOptions) {
  const verified = new LRUCache<string, VerifiedKey>({ max: opts.max ?? 10_000, ttl: opts.ttlMs });
  const unknown = new LRUCache<string, true>({ max: opts.max ?? 10_000, ttl: opts.negativeTtlMs });
  return {
    get: (hash: string) => verified.get(hash),
    set(hash: string, key: VerifiedKey) {
      unknown.delete(hash);
      const left = key.expiresAt === undefined ? undefined : key.expiresAt - Date.now();
      if (left !== undefined && left <= 0) return;
      verified.set(hash, key, left !== undefined && (opts.ttlMs <= 0 || left < opts.ttlMs) ? { ttl: left } : undefined);
    },
    isKnownUnknown: (hash: string) => unknown.has(hash),
    markUnknown: (hash: string) => void unknown.set(hash, true),
    /** Drops every cached entry of this key id (revocation). */
    evictKeyId(keyId: string) {
      for (const [hash, key] of verified.entries()) if (key.keyId === keyId) verified.delete(hash);
    },
    clear() {
      verified.clear();
      unknown.clear();
    },
    get size() {
      return verified.size;
    },
  };
}
export type KeyCache = ReturnType<typeof createKeyCache>;
