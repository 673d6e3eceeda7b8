import type { Redis } from './redis';

/**
 * The per-company request limit of the public API: a sliding one-second window per company, exact across
 * replicas: each admitted request is an entry (Redis' own clock, microseconds) in the company's sorted set, and a
 * request is admitted only while fewer than `perSecond` entries fall into the last second. One script call per
 * request, atomic in Redis, so concurrent requests on any number of replicas never exceed the limit in any second.
 *
 * The gateway takes a slot for every API request; recurring-service, which calls invoice-service's API directly
 * (not through the gateway), takes one from the same window for every call it makes for a company, so its runs
 * count against the company's limit as an integrator's requests do.
 *
 * Written as a script rather than taken from a package: the sliding-window packages for Node either ship only as
 * ES modules pinned to an older ioredis (sliding-window-rate-limiter) or count fixed windows (rate-limiter-flexible's
 * Redis limiter), which let twice the limit through around a window's edge.
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

/** The gateway's namespace in Redis (its client's key prefix after REDIS_PREFIX). */
export const GATEWAY_REDIS_NAMESPACE = 'gw:';
/** The key of a company's window inside the gateway's namespace. */
export const companyRateLimitKey = (companyId: string) => `rl:${companyId}`;

export const RATE_LIMIT_WINDOW_MS = 1000;
/** How long a caller waits for Redis' verdict before the process's own one counts. */
const REDIS_WAIT_MS = 250;

export interface RateVerdict {
  admitted: boolean;
  /** Entries in the window, this one included when admitted. */
  count: number;
  /** Microseconds until the oldest entry leaves the window (a slot frees). */
  resetUs: number;
}

export interface CompanyRateLimit {
  /** Takes one slot of the company's window, or answers that none is free. */
  take(companyId: string): Promise<RateVerdict>;
  stop(): void;
}

/**
 * `perSecond` slots per company in any sliding second, shared by every process using the same Redis key
 * (`keyPrefix` + `rl:<company>` under the client's own prefix: the gateway passes '', a service whose client
 * has only REDIS_PREFIX passes GATEWAY_REDIS_NAMESPACE). If Redis is unreachable or slow, each process limits
 * on its own with the same window in memory (availability over strictness) and the failure is reported.
 */
export function createCompanyRateLimit(
  redis: Redis,
  perSecond: number,
  opts: { keyPrefix?: string; onRedisError?: (err: unknown) => void } = {},
): CompanyRateLimit {
  const r = redis as WithCommand;
  if (typeof r.slidingWindow !== 'function') r.defineCommand('slidingWindow', { numberOfKeys: 1, lua: SCRIPT });
  const keyPrefix = opts.keyPrefix ?? '';
  const local = new Map<string, number[]>();
  let nonce = 0;
  const prefix = `${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const sweeper = setInterval(() => {
    const cutoff = Date.now() - RATE_LIMIT_WINDOW_MS;
    for (const [k, times] of local) if (!times.length || times[times.length - 1]! <= cutoff) local.delete(k);
  }, 5_000).unref();

  /** The same window in this process's memory, for when Redis does not answer. */
  const admitLocally = (companyId: string): [number, number, number] => {
    const now = Date.now();
    const times = (local.get(companyId) ?? []).filter((t) => t > now - RATE_LIMIT_WINDOW_MS);
    local.set(companyId, times);
    const resetUs = times.length ? (times[0]! + RATE_LIMIT_WINDOW_MS - now) * 1000 : RATE_LIMIT_WINDOW_MS * 1000;
    if (times.length >= perSecond) return [0, times.length, resetUs];
    times.push(now);
    return [1, times.length, resetUs];
  };

  const take = async (companyId: string): Promise<RateVerdict> => {
    let verdict: [number, number, number];
    try {
      // a Redis that is away or slow must not hold requests up: not ready, or no answer within REDIS_WAIT_MS, limits locally
      if (r.status !== 'ready') throw new Error(`Redis is ${r.status}`);
      let timer: NodeJS.Timeout | undefined;
      const answer = await Promise.race([
        r.slidingWindow(`${keyPrefix}${companyRateLimitKey(companyId)}`, perSecond, RATE_LIMIT_WINDOW_MS * 1000, `${prefix}-${nonce++}`),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`Redis did not answer within ${REDIS_WAIT_MS} ms`)), REDIS_WAIT_MS);
        }),
      ]).finally(() => clearTimeout(timer));
      verdict = answer.map(Number) as [number, number, number];
    } catch (err) {
      opts.onRedisError?.(err);
      verdict = admitLocally(companyId);
    }
    return { admitted: verdict[0] === 1, count: verdict[1], resetUs: verdict[2] };
  };

  return { take, stop: () => clearInterval(sweeper) };
}
