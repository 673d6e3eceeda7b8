import type { NextFunction, Request, Response } from 'express';
import type { Redis } from '@inv/service-kit';
import { AppError, createCompanyRateLimit, RATE_LIMIT_WINDOW_MS } from '@inv/service-kit';

export interface RateLimiter {
  middleware: (req: Request, res: Response, next: NextFunction) => Promise<void>;
  stop(): void;
}

/**
 * The IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers: `RateLimit-Policy` and `RateLimit`) and the
 * older `RateLimit-Limit/-Remaining/-Reset` trio clients already read, for a policy of `limit` per `windowS`.
 */
export function setRateLimitHeaders(res: Response, policy: string, limit: number, windowS: number, remaining: number, resetS: number) {
  res.setHeader('RateLimit-Policy', `"${policy}";q=${limit};w=${windowS}`);
  res.setHeader('RateLimit', `"${policy}";r=${remaining};t=${resetS}`);
  res.setHeader('RateLimit-Limit', String(limit));
  res.setHeader('RateLimit-Remaining', String(remaining));
  res.setHeader('RateLimit-Reset', String(resetS));
}

/**
 * `perSecond` requests per company in any sliding second (all replicas together), answered 429 RATE_LIMITED with
 * Retry-After beyond; every answer carries the RateLimit headers. If Redis is unreachable, each replica limits on
 * its own with the same window in memory (availability over strictness) and the failure is reported.
 */
export function createRateLimiter(redis: Redis, perSecond: number, opts: { onRedisError?: (err: unknown) => void } = {}): RateLimiter {
  // the window itself lives in service-kit: recurring-service takes its calls from the same one (see there)
  const limit = createCompanyRateLimit(redis, perSecond, opts);

  const middleware = async (_req: Request, res: Response, next: NextFunction) => {
    const { admitted, count, resetUs } = await limit.take(String(res.locals.companyId));
    const resetS = Math.max(1, Math.ceil(resetUs / 1_000_000));
    setRateLimitHeaders(res, 'company', perSecond, RATE_LIMIT_WINDOW_MS / 1000, Math.max(0, perSecond - count), resetS);
    if (!admitted) {
      res.setHeader('Retry-After', String(resetS));
      throw new AppError('rate_limited', `rate limit of ${perSecond} requests per second exceeded`, { code: 'RATE_LIMITED' });
    }
    next();
  };

  return { middleware, stop: () => limit.stop() };
}
