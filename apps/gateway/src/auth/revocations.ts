import { apiKeyRevokedChannel, openRedis, type Logger } from '@inv/service-kit';
import type { KeyCache } from './key-cache';

/**
 * Subscribes to account-service's revocation announcements (Redis pub/sub, received by every gateway
 * replica) and evicts the revoked key from this replica's cache. Whenever the subscription is
 * (re)established the whole cache is dropped, since announcements may have been missed meanwhile.
 */
export async function subscribeToRevocations(redisUrl: string, redisPrefix: string, cache: KeyCache, logger: Logger) {
  const sub = openRedis(redisUrl, { maxRetriesPerRequest: null });
  const channel = apiKeyRevokedChannel(redisPrefix);
  sub.on('ready', () => cache.clear());
  sub.on('error', (err) => logger.warn({ err: err.message }, 'revocation subscription: Redis error'));
  sub.on('message', (_channel: string, message: string) => {
    try {
      const { keyId } = JSON.parse(message) as { keyId?: unknown };
      if (typeof keyId === 'string') cache.evictKeyId(keyId);
    } catch {
      logger.warn('revocation subscription: unreadable message ignored');
    }
  });
  await sub.subscribe(channel);
  return { stop: () => void sub.disconnect() };
}
