import Redis, { type RedisOptions } from 'ioredis';

/**
 * ioredis options for a REDIS_URL. Besides redis:// and rediss:// URLs (one server), a Sentinel setup is
 * written `redis+sentinel://[:password@]host1:26379,host2:26379,host3:26379/<master name>`: the client asks
 * the sentinels for the current primary and follows a failover. The password is the data nodes' (Sentinel
 * is asked with the same one).
 */
export function redisOptionsFromUrl(url: string): { url?: string; options: RedisOptions } {
  const m = /^redis\+sentinel:\/\/(?:([^:@/]*)(?::([^@/]*))?@)?([^/]+)\/([\w.-]+)\/?$/.exec(url);
  if (!m) return { url, options: {} };
  const [, username, password, hosts, name] = m;
  const sentinels = hosts.split(',').map((h) => {
    const [host, port] = h.split(':');
    return { host, port: Number(port || 26379) };
  });
  const secret = password ? decodeURIComponent(password) : undefined;
  return { options: { sentinels, name, username: username || undefined, password: secret, sentinelPassword: secret } };
}

/** An ioredis client for REDIS_URL (one server or Sentinel, see redisOptionsFromUrl). */
export function openRedis(url: string, options: RedisOptions = {}): Redis {
  const parsed = redisOptionsFromUrl(url);
  return parsed.url ? new Redis(parsed.url, options) : new Redis({ ...parsed.options, ...options });
}

/** ioredis client whose every key carries `keyPrefix` (per service, and per test run in tests). */
export function connectRedis(url: string, keyPrefix: string): Redis {
  return openRedis(url, { keyPrefix, maxRetriesPerRequest: 3, enableReadyCheck: true, lazyConnect: false });
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
