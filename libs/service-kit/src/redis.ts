import Redis from 'ioredis';

/** ioredis client whose every key carries `keyPrefix` (per service, and per test run in tests). */
export function connectRedis(url: string, keyPrefix: string): Redis {
  return new Redis(url, { keyPrefix, maxRetriesPerRequest: 3, enableReadyCheck: true, lazyConnect: false });
}

export function redisReady(redis: Redis): boolean {
  return redis.status === 'ready';
}

export type { Redis };
