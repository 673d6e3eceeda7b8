import type { NextFunction, Request, Response } from 'express';
import { AppError } from '@inv/service-kit';
import { PerKeyCounter } from './upstream-gate';

/** `?wait=N` with N > 0 on a GET: a long poll (job status). */
const WAIT_PARAM = /([?&])wait=([^&]*)(&|$)/;
export const isLongPoll = (req: Request) => req.method === 'GET' && Number(WAIT_PARAM.exec(req.url)?.[2] ?? 0) > 0;
/** The URL without its `wait` parameter: the service answers the current state at once. */
export const withoutWait = (url: string) =>
  url.replace(WAIT_PARAM, (_m, lead: string, _v, tail: string) => (tail ? lead : '')).replace(/\?$/, '');

/** Set on `res.locals` for a long poll admitted as one: the proxy forwards it on the long-poll sockets. */
export const LONG_POLL = 'longPoll';

/**
 * What one company may have in progress at once on this replica: `maxLongPolls` long polls, held on sockets of
 * their own (a further long poll is answered at once, as without `wait`), and `max` other requests (429
 * TOO_MANY_CONCURRENT_REQUESTS with Retry-After beyond). With the upstream gates this keeps one company's slow,
 * numerous or long-held requests from taking the capacity every other company shares.
 */
export function companyConcurrency(max: number, maxLongPolls: number) {
  const requests = new PerKeyCounter(max);
  const longPolls = new PerKeyCounter(maxLongPolls);
  return (req: Request, res: Response, next: NextFunction) => {
    const companyId = String(res.locals.companyId);
    if (isLongPoll(req)) {
      const release = longPolls.tryEnter(companyId);
      if (release) {
        res.locals[LONG_POLL] = true;
        res.once('close', release);
        return next();
      }
      req.url = withoutWait(req.url); // the company's long polls are all open: an ordinary request
    }
    const release = requests.tryEnter(companyId);
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
