import type { NextFunction, Request, Response } from 'express';
import type { Redis } from '@inv/service-kit';
import { AppError } from '@inv/service-kit';

/**
 * A sliding one-second window per company, exact across gateway replicas: each admitted request is an entry
 * (Redis' own clock, microseconds) in the company's sorted set, and a request is admitted only while fewer than
 * `perSecond` entries fall into the last second. One script call per request, atomic in Redis, so concurrent
 * requests on any number of replicas never exceed the limit in any second.
 *
 * Written as a script rather than taken from a package: the sliding-window packages for Node either ship only as
 * ES modules pinned to an older ioredis (sliding-window-rate-limiter) or count fixed windows (rate-limiter-flexible's
 * Redis limiter), which let twice the limit through around a window's edge — the flaw this replaces.
 */
const SCRIPT = `
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local resetUs = window
if oldest[2] then resetUs = tonumber(oldest[2]) + window - now end
if count >= limit then return {0, count, resetUs} end
redis.call('ZADD', KEYS[1], now, now .. '-' .. ARGV[3])
redis.call('PEXPIRE', KEYS[1], math.ceil(window / 1000) + 1000)
if count == 0 then resetUs = window end
return {1, count + 1, resetUs}
`;

type WithCommand = Redis & {
  slidingWindow(key: string, limit: number, windowUs: number, nonce: string): Promise<[number, number, number]>;
};

export interface RateLimiter {
  middleware: (req: Request, res: Response, next: NextFunction) => Promise<void>;
  stop(): void;
}

const WINDOW_MS = 1000;
/** How long a request waits for Redis' verdict before the replica's own one counts. */
const REDIS_WAIT_MS = 250;

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
  const r = redis as WithCommand;
  if (typeof r.slidingWindow !== 'function') r.defineCommand('slidingWindow', { numberOfKeys: 1, lua: SCRIPT });
  const local = new Map<string, number[]>();
  let nonce = 0;
  const prefix = `${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const sweeper = setInterval(() => {
    const cutoff = Date.now() - WINDOW_MS;
    for (const [k, times] of local) if (!times.length || times[times.length - 1]! <= cutoff) local.delete(k);
  }, 5_000).unref();

  /** The same window in this process's memory, for when Redis does not answer. */
  const admitLocally = (companyId: string): [number, number, number] => {
    const now = Date.now();
    const times = (local.get(companyId) ?? []).filter((t) => t > now - WINDOW_MS);
    local.set(companyId, times);
    const resetUs = times.length ? (times[0]! + WINDOW_MS - now) * 1000 : WINDOW_MS * 1000;
    if (times.length >= perSecond) return [0, times.length, resetUs];
    times.push(now);
    return [1, times.length, resetUs];
  };

  const middleware = async (_req: Request, res: Response, next: NextFunction) => {
    const companyId = String(res.locals.companyId);
    let verdict: [number, number, number];
    try {
      // a Redis that is away or slow must not hold requests up: not ready, or no answer within REDIS_WAIT_MS, limits locally
      if (r.status !== 'ready') throw new Error(`Redis is ${r.status}`);
      let timer: NodeJS.Timeout | undefined;
      const answer = await Promise.race([
        r.slidingWindow(`rl:${companyId}`, perSecond, WINDOW_MS * 1000, `${prefix}-${nonce++}`),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`Redis did not answer within ${REDIS_WAIT_MS} ms`)), REDIS_WAIT_MS);
        }),
      ]).finally(() => clearTimeout(timer));
      verdict = answer.map(Number) as [number, number, number];
    } catch (err) {
      opts.onRedisError?.(err);
      verdict = admitLocally(companyId);
    }
    const [admitted, count, resetUs] = verdict;
    const resetS = Math.max(1, Math.ceil(resetUs / 1_000_000));
    setRateLimitHeaders(res, 'company', perSecond, WINDOW_MS / 1000, Math.max(0, perSecond - count), resetS);
    if (!admitted) {
      res.setHeader('Retry-After', String(resetS));
      throw new AppError('rate_limited', `rate limit of ${perSecond} requests per second exceeded`, { code: 'RATE_LIMITED' });
    }
    next();
  };

  return { middleware, stop: () => clearInterval(sweeper) };
}
