import type { NextFunction, Request, Response } from 'express';
import type { Redis } from '@inv/service-kit';
import { AppError } from '@inv/service-kit';

/**
 * Fixed one-second window per company in Redis (INCR + EXPIRE in one MULTI), shared by all gateway
 * replicas. Answers 429 with Retry-After and the draft RateLimit headers. If Redis is down, requests pass
 * (availability over strictness) and the failure is logged by the caller's error path.
 */
export function rateLimit(redis: Redis, perSecond: number) {
  return async (_req: Request, res: Response, next: NextFunction) => {
    const second = Math.floor(Date.now() / 1000);
    const key = `rl:${String(res.locals.companyId)}:${second}`;
    let count = 0;
    try {
      const result = await redis.multi().incr(key).expire(key, 2).exec();
      count = Number(result?.[0]?.[1] ?? 0);
    } catch {
      return next();
    }
    res.setHeader('RateLimit-Limit', String(perSecond));
    res.setHeader('RateLimit-Remaining', String(Math.max(0, perSecond - count)));
    res.setHeader('RateLimit-Reset', '1');
    if (count > perSecond) {
      res.setHeader('Retry-After', '1');
      throw new AppError('rate_limited', `rate limit of ${perSecond} requests per second exceeded`, { code: 'RATE_LIMITED' });
    }
    next();
  };
}
