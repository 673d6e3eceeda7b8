import type { Redis } from 'ioredis';

/**
 * Token bucket per client address for FAILED authentications, in Redis (shared by all gateway replicas).
 * An authentication that needs work (a key not in the verified cache) takes a token first; once the
 * bucket is empty the address gets 429 + Retry-After before any account-service (database) work, and a
 * successful authentication gives its token back, so only failures count. Tokens refill at `perMinute`.
 * Keys already verified (cached) are not checked at all, so a company sharing an address (NAT) with a
 * key-guesser keeps working. Taking before the work bounds concurrent bursts exactly; Redis' clock is
 * used, so replicas agree.
 */
const SCRIPT = `
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2]) / 60000
local cost = tonumber(ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(state[1]) or capacity
local ts = tonumber(state[2]) or now
tokens = math.min(capacity, tokens + math.max(0, now - ts) * rate)
if cost > 0 and tokens < 1 then return math.ceil((1 - tokens) / rate) end
tokens = math.min(capacity, tokens - cost)
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - tokens) / rate) + 1000)
return 0
`;

type WithCommand = Redis & { authBucket(key: string, capacity: number, perMinute: number, cost: number): Promise<number> };

export interface FailedAuthLimiterOptions {
  /** Failures an address may have in a burst (default 20). */
  burst: number;
  /** Refill of that budget per minute (default 30). */
  perMinute: number;
}

export function createFailedAuthLimiter(redis: Redis, opts: FailedAuthLimiterOptions, onRedisError: (err: unknown) => void) {
  const r = redis as WithCommand;
  if (typeof r.authBucket !== 'function') r.defineCommand('authBucket', { numberOfKeys: 1, lua: SCRIPT });
  const run = async (client: string, cost: number) => {
    try {
      return Number(await r.authBucket(`authfail:${client}`, opts.burst, opts.perMinute, cost));
    } catch (err) {
      // availability over strictness, like the per-company rate limit: if Redis is down, nobody is blocked
      onRedisError(err);
      return 0;
    }
  };
  return {
    /** The budget: `burst` failures, regained at `perMinute`. */
    policy: { burst: opts.burst, perMinute: opts.perMinute },
    /** Takes a token for an authentication attempt: 0 if it may go ahead, else milliseconds to wait. */
    take: (client: string) => run(client, 1),
    /** Gives the token back after a successful authentication. */
    refund: async (client: string) => void (await run(client, -1)),
  };
}
export type FailedAuthLimiter = ReturnType<typeof createFailedAuthLimiter>;
