import type { NextFunction, Request, Response } from 'express';
import { connectRedis, type Redis } from '@inv/service-kit';
import { deleteRedisKeys, uniquePrefix } from '@inv/testing';
import { createRateLimiter } from './rate-limit';

/** A sliding one-second window per company, exact across gateway replicas (one Redis script call per request). */
describe('rate limit', () => {
  const prefix = `${uniquePrefix('rl')}:`;
  let redis: Redis;

  beforeAll(async () => {
    redis = connectRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', prefix);
    await new Promise((r) => (redis.status === 'ready' ? r(undefined) : redis.once('ready', r)));
  });
  afterAll(async () => {
    await deleteRedisKeys(prefix);
    redis.disconnect();
  });

  /** One request of a company through the limiter: admitted or not, and the headers it set. */
  const one = async (limiter: ReturnType<typeof createRateLimiter>, companyId: string) => {
    const headers: Record<string, string> = {};
    const res = { locals: { companyId }, setHeader: (k: string, v: string) => void (headers[k] = v) } as unknown as Response;
    let admitted = false;
    try {
      await limiter.middleware({} as Request, res, (() => void (admitted = true)) as NextFunction);
    } catch (err) {
      expect((err as { code?: string }).code).toBe('RATE_LIMITED');
      expect(Number(headers['Retry-After'])).toBeGreaterThanOrEqual(1);
    }
    return { admitted, headers };
  };
  const burst = async (limiter: ReturnType<typeof createRateLimiter>, companyId: string, n: number) =>
    (await Promise.all(Array.from({ length: n }, () => one(limiter, companyId)))).filter((r) => r.admitted).length;

  it('admits the limit and no more, concurrently, across two replicas; other companies are not affected', async () => {
    const a = createRateLimiter(redis, 20);
    const b = createRateLimiter(redis, 20);
    const [onA, onB] = await Promise.all([burst(a, 'cmp_shared', 25), burst(b, 'cmp_shared', 25)]);
    expect(onA + onB).toBe(20);
    expect(await burst(a, 'cmp_other', 5)).toBe(5);
    a.stop();
    b.stop();
  });

  it('is a sliding window: no more than the limit in any second, also across a second boundary', async () => {
    const errors: unknown[] = [];
    const limiter = createRateLimiter(redis, 10, { onRedisError: (err) => errors.push(err) });
    // each admission's time in Redis lies between the call's start and end; `slowest` bounds that uncertainty
    const admitted: { start: number; end: number }[] = [];
    const until = Date.now() + 2_500;
    while (Date.now() < until) {
      const start = Date.now();
      if ((await one(limiter, 'cmp_slide')).admitted) admitted.push({ start, end: Date.now() });
      await new Promise((r) => setTimeout(r, 10));
    }
    const slowest = Math.max(...admitted.map((a) => a.end - a.start));
    // admissions that ended less than 1000 - slowest ms apart were admitted less than a second apart in Redis
    const span = 1000 - slowest;
    const worst = Math.max(...admitted.map((a) => admitted.filter((b) => b.end >= a.end && b.end < a.end + span).length));
    if (errors.length === 0) expect(worst).toBeLessThanOrEqual(10);
    expect(admitted.length).toBeGreaterThanOrEqual(20); // and it keeps admitting as the window slides
    expect(admitted.length).toBeLessThanOrEqual(30 + (errors.length ? 10 : 0)); // at most 10 per second over 2.5 s
    limiter.stop();
  });

  it('sets the IETF RateLimit fields and the older trio on every answer', async () => {
    const limiter = createRateLimiter(redis, 3);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await one(limiter, 'cmp_headers'));
    expect(answers[0].headers['RateLimit-Policy']).toBe('"company";q=3;w=1');
    expect(answers[0].headers.RateLimit).toBe('"company";r=2;t=1');
    expect(answers[2].headers['RateLimit-Remaining']).toBe('0');
    expect(answers[3].admitted).toBe(false);
    expect(answers[3].headers.RateLimit).toMatch(/^"company";r=0;t=1$/);
    expect(answers[3].headers['RateLimit-Limit']).toBe('3');
    limiter.stop();
  });

  it('limits per replica in memory when Redis does not answer', async () => {
    const broken = connectRedis('redis://127.0.0.1:1', prefix);
    const errors: unknown[] = [];
    const limiter = createRateLimiter(broken, 5, { onRedisError: (err) => errors.push(err) });
    expect(await burst(limiter, 'cmp_down', 8)).toBe(5);
    expect(errors.length).toBeGreaterThan(0);
    limiter.stop();
    broken.disconnect();
  });
});
