import type { NextFunction, Request, Response } from 'express';
import type { Redis } from '@inv/service-kit';
import { AppError } from '@inv/service-kit';

interface Window {
  second: number;
  /** The company's count in Redis (all replicas) as of this replica's last sync. */
  known: number;
  /** Requests counted here and not yet added to Redis. */
  pending: number;
}

export interface RateLimiter {
  middleware: (req: Request, res: Response, next: NextFunction) => void;
  /** Adds what is counted here to Redis now (also runs on its own, `syncMs` after the first unsynced request). */
  sync(): Promise<void>;
  stop(): void;
}

/**
 * Fixed one-second window per company, shared by all gateway replicas through Redis, without a Redis round
 * trip per request: each replica counts locally and adds its count to the window's Redis counter (INCRBY +
 * EXPIRE in one pipeline for all companies) at most every `syncMs`, learning the other replicas' counts from
 * the answer. With one replica the limit is exact; with several a company can exceed it by what the other
 * replicas admitted within one sync interval. Answers 429 with Retry-After and the draft RateLimit headers.
 * If Redis is down, the local count still limits (each replica on its own) and the failure is reported.
 */
export function createRateLimiter(
  redis: Redis,
  perSecond: number,
  opts: { syncMs?: number; now?: () => number; onSyncError?: (err: unknown) => void } = {},
): RateLimiter {
  const syncMs = opts.syncMs ?? 50;
  const now = opts.now ?? Date.now;
  const windows = new Map<string, Window>();
  let timer: NodeJS.Timeout | undefined;
  let syncing: Promise<void> | undefined;

  const sync = async (): Promise<void> => {
    timer = undefined;
    if (syncing) await syncing;
    const second = Math.floor(now() / 1000);
    const batch: Array<{ companyId: string; w: Window; sent: number }> = [];
    for (const [companyId, w] of windows) {
      if (w.second < second)
        windows.delete(companyId); // a past window: its count no longer matters
      else if (w.pending > 0) batch.push({ companyId, w, sent: w.pending });
    }
    if (batch.length === 0) return;
    const pipeline = redis.pipeline();
    for (const { companyId, w, sent } of batch) {
      const key = `rl:${companyId}:${w.second}`;
      pipeline.incrby(key, sent).expire(key, 2);
    }
    syncing = (async () => {
      try {
        const results = await pipeline.exec();
        batch.forEach(({ w, sent }, i) => {
          const [err, total] = results?.[2 * i] ?? [new Error('no answer from Redis')];
          if (err) return opts.onSyncError?.(err); // not added: stays pending for the next sync
          w.pending -= sent;
          w.known = Number(total);
        });
      } catch (err) {
        opts.onSyncError?.(err);
      } finally {
        syncing = undefined;
      }
    })();
    await syncing;
  };

  const middleware = (_req: Request, res: Response, next: NextFunction) => {
    const companyId = String(res.locals.companyId);
    const second = Math.floor(now() / 1000);
    let w = windows.get(companyId);
    if (!w || w.second !== second) {
      w = { second, known: 0, pending: 0 };
      windows.set(companyId, w);
    }
    w.pending++;
    timer ??= setTimeout(() => void sync(), syncMs).unref();
    const count = w.known + w.pending;
    res.setHeader('RateLimit-Limit', String(perSecond));
    res.setHeader('RateLimit-Remaining', String(Math.max(0, perSecond - count)));
    res.setHeader('RateLimit-Reset', '1');
    if (count > perSecond) {
      res.setHeader('Retry-After', '1');
      throw new AppError('rate_limited', `rate limit of ${perSecond} requests per second exceeded`, { code: 'RATE_LIMITED' });
    }
    next();
  };

  return {
    middleware,
    sync,
    stop: () => {
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}
