import type Redis from 'ioredis';
import type { VatCheckStatus } from '../domain/vat-check-decision';

/** One cached VIES verdict with its audit evidence. */
export type CachedVatCheck = {
  status: VatCheckStatus;
  countryCode: string;
  /** Without the country prefix. */
  vatNumber: string;
  /** ISO timestamp of our check. */
  checkedAt: string;
  /** Request date VIES stated (YYYY-MM-DD). */
  requestDate?: string;
  name?: string;
  address?: string;
  consultationNumber?: string;
  /** Last VIES fault when status is unavailable (or INVALID_INPUT). */
  fault?: string;
  attempts: number;
};

export type VatCache = {
  get(countryCode: string, vatNumber: string): Promise<CachedVatCheck | null>;
  set(entry: CachedVatCheck): Promise<void>;
  delete(countryCode: string, vatNumber: string): Promise<void>;
  /** The Redis key of a VAT ID (for tests and operators). */
  keyOf(countryCode: string, vatNumber: string): string;
};

export type VatCacheOptions = {
  redis: Redis;
  /** Prepended to every key (leave '' when the Redis client already has an ioredis keyPrefix). */
  prefix?: string;
  /** How long valid and invalid verdicts are reused (default 24 h). */
  answerTtlSeconds?: number;
  /** How long `unavailable` is reused: only briefly, so that VIES is asked again soon (default 60 s). */
  unavailableTtlSeconds?: number;
};

export const DEFAULT_ANSWER_TTL_SECONDS = 24 * 60 * 60;
export const DEFAULT_UNAVAILABLE_TTL_SECONDS = 60;

export function createVatCache(options: VatCacheOptions): VatCache {
  const { redis, prefix = '' } = options;
  const answerTtl = options.answerTtlSeconds ?? DEFAULT_ANSWER_TTL_SECONDS;
  const unavailableTtl = options.unavailableTtlSeconds ?? DEFAULT_UNAVAILABLE_TTL_SECONDS;
  const keyOf = (countryCode: string, vatNumber: string) => `${prefix}vies:${countryCode}${vatNumber}`;

  return {
    keyOf,
    async get(countryCode, vatNumber) {
      const raw = await redis.get(keyOf(countryCode, vatNumber));
      return raw === null ? null : parseEntry(raw);
    },
    async set(entry) {
      const ttl = entry.status === 'unavailable' ? unavailableTtl : answerTtl;
      await redis.set(keyOf(entry.countryCode, entry.vatNumber), JSON.stringify(entry), 'EX', ttl);
    },
    async delete(countryCode, vatNumber) {
      await redis.del(keyOf(countryCode, vatNumber));
    },
  };
}

/** A value we cannot read (older format, manual edit) counts as a miss rather than an error. */
function parseEntry(raw: string): CachedVatCheck | null {
  try {
    const value = JSON.parse(raw) as Partial<CachedVatCheck> | null;
    const statusOk = value?.status === 'valid' || value?.status === 'invalid' || value?.status === 'unavailable';
    if (
      !value ||
      !statusOk ||
      typeof value.countryCode !== 'string' ||
      typeof value.vatNumber !== 'string' ||
      typeof value.checkedAt !== 'string'
    ) {
      return null;
    }
    return value as CachedVatCheck;
  } catch {
    return null;
  }
}
