import Redis from 'ioredis';

/** ioredis client whose every key carries `keyPrefix` (per service, and per test run in tests). */
export function connectRedis(url: string, keyPrefix: string): Redis {
  return new Redis(url, { keyPrefix, maxRetriesPerRequest: 3, enableReadyCheck: true, lazyConnect: false });
}

export function redisReady(redis: Redis): boolean {
  return redis.status === 'ready';
}

export type { Redis };

/**
 * Redis pub/sub channel on which account-service announces a revoked API key ({ keyId, companyId }), so
 * every gateway replica evicts it from its verified-key cache at once. Channels carry no keyPrefix.
 */
export const apiKeyRevokedChannel = (redisPrefix: string) => `${redisPrefix}events:api-key-revoked`;
