import type { NextFunction, Request, Response } from 'express';
import { connectRedis, type Redis } from '@inv/service-kit';
import { deleteRedisKeys, uniquePrefix } from '@inv/testing';
import { createRateLimiter } from './rate-limit';

/** The local count with periodic Redis sync keeps one limit per company and second across gateway replicas. */
describe('rate limit', () => {
  const prefix = `${uniquePrefix('rl')}:`;
  let redis: Redis;
  let clock = 1_700_000_000_000; // the start of a second
  const now = () => clock;

  beforeAll(() => {
    redis = connectRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', prefix);
  });
  afterAll(async () => {
    await deleteRedisKeys(prefix);
    redis.disconnect();
  });

  /** Sends `n` requests of a company through the limiter; answers how many were let through. */
  const send = (limiter: ReturnType<typeof createRateLimiter>, companyId: string, n: number) => {
    let passed = 0;
    let limited = 0;
    for (let i = 0; i < n; i++) {
      const headers: Record<string, string> = {};
      const res = { locals: { companyId }, setHeader: (k: string, v: string) => void (headers[k] = v) } as unknown as Response;
      try {
        limiter.middleware({} as Request, res, (() => void passed++) as NextFunction);
      } catch (err) {
        expect((err as { code?: string }).code).toBe('RATE_LIMITED');
        expect(headers['Retry-After']).toBe('1');
        limited++;
      }
    }
    return { passed, limited };
  };

  it('is exact on one replica without waiting for Redis', () => {
    const limiter = createRateLimiter(redis, 20, { now, syncMs: 60_000 });
    expect(send(limiter, 'cmp_one', 30)).toEqual({ passed: 20, limited: 10 });
    expect(send(limiter, 'cmp_other', 5)).toEqual({ passed: 5, limited: 0 }); // other companies are not affected
    clock += 1000; // the next second starts afresh
    expect(send(limiter, 'cmp_one', 20)).toEqual({ passed: 20, limited: 0 });
    limiter.stop();
  });

  it('shares the count between replicas through Redis after a sync', async () => {
    clock += 1000;
    const a = createRateLimiter(redis, 20, { now, syncMs: 60_000 });
    const b = createRateLimiter(redis, 20, { now, syncMs: 60_000 });
    expect(send(a, 'cmp_shared', 15)).toEqual({ passed: 15, limited: 0 });
    await a.sync();
    expect(send(b, 'cmp_shared', 1)).toEqual({ passed: 1, limited: 0 }); // b has not heard of a's 15 yet
    await b.sync(); // b learns the window's total (16)
    expect(send(b, 'cmp_shared', 10)).toEqual({ passed: 4, limited: 6 });
    await b.sync();
    // a learns of b's requests with its own next sync: until then it may admit what falls into one interval
    expect(send(a, 'cmp_shared', 1)).toEqual({ passed: 1, limited: 0 });
    await a.sync();
    expect(send(a, 'cmp_shared', 1)).toEqual({ passed: 0, limited: 1 });
    expect(Number(await redis.get(`rl:cmp_shared:${Math.floor(clock / 1000)}`))).toBe(27);
    a.stop();
    b.stop();
  });

  it('syncs on its own shortly after the first unsynced request', async () => {
    clock += 1000;
    const limiter = createRateLimiter(redis, 20, { now, syncMs: 10 });
    send(limiter, 'cmp_auto', 3);
    const key = `rl:cmp_auto:${Math.floor(clock / 1000)}`;
    for (let i = 0; i < 100 && (await redis.get(key)) !== '3'; i++) await new Promise((r) => setTimeout(r, 10));
    expect(await redis.get(key)).toBe('3');
    limiter.stop();
  });
});
