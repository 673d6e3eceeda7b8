import type { NextFunction, Request, Response } from 'express';
import { AppError } from '@inv/service-kit';
import { PerKeyCounter } from './upstream-gate';

/**
 * At most `max` requests of one company in flight on this replica (long polls are counted by the proxy's own
 * per-company cap). With the upstream gates this keeps one company's slow or numerous requests from taking
 * the capacity every other company shares: beyond it 429 TOO_MANY_CONCURRENT_REQUESTS with Retry-After.
 */
export function companyConcurrency(max: number) {
  const counter = new PerKeyCounter(max);
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'GET' && /[?&]wait=[1-9]/.test(req.url)) return next();
    const release = counter.tryEnter(String(res.locals.companyId));
    if (!release) {
      res.setHeader('Retry-After', '1');
      throw new AppError('rate_limited', `at most ${max} requests of one company may be in progress at once; retry when one has finished`, {
        code: 'TOO_MANY_CONCURRENT_REQUESTS',
      });
    }
    res.once('close', release);
    next();
  };
}
