import { createHash } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import { context, propagation } from '@opentelemetry/api';
import { AppError, IDENTITY_HEADER, type Redis } from '@inv/service-kit';

interface Stored {
  state: 'pending' | 'done';
  fingerprint: string;
  status?: number;
  contentType?: string;
  body?: string;
}

const KEY_PATTERN = /^[\w.:-]{1,255}$/;

/**
 * `Idempotency-Key` on POST (IETF draft httpapi-idempotency-key-header): the first request is forwarded
 * and its answer kept for the TTL; a retry with the same key and body gets the same answer without
 * running again; the same key with another body is 422; a retry while the first is still running is 409.
 * These requests are buffered (JSON, up to 1 MB) and forwarded with fetch instead of streamed, so the
 * answer can be stored. 5xx answers are not kept: the client should be able to retry them.
 */
export function idempotency(redis: Redis, ttlSeconds: number, targetOf: (path: string) => string | undefined) {
  const readBody = express.raw({ type: () => true, limit: '1mb' });
  return (req: Request, res: Response, next: NextFunction) => {
    const idemKey = req.header('idempotency-key');
    if (req.method !== 'POST' || idemKey === undefined) return next();
    if (!KEY_PATTERN.test(idemKey)) throw new AppError('invalid_data', 'Idempotency-Key must be 1-255 characters of letters, digits, _ . : -', { code: 'INVALID_IDEMPOTENCY_KEY' });
    readBody(req, res, async (err?: unknown) => {
      try {
        if (err) throw err;
        const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const fingerprint = createHash('sha256').update(`${req.method} ${req.originalUrl}\n`).update(body).digest('hex');
        const key = `idem:${String(res.locals.companyId)}:${idemKey}`;
        const claimed = await redis.set(key, JSON.stringify({ state: 'pending', fingerprint } satisfies Stored), 'EX', ttlSeconds, 'NX');
        if (!claimed) {
          const stored = JSON.parse((await redis.get(key)) ?? '{}') as Partial<Stored>;
          if (stored.fingerprint !== fingerprint) throw new AppError('unprocessable', 'this Idempotency-Key was used with a different request', { code: 'IDEMPOTENCY_KEY_REUSED' });
          if (stored.state !== 'done') throw new AppError('conflict', 'a request with this Idempotency-Key is still being processed; retry shortly', { code: 'IDEMPOTENCY_IN_PROGRESS' });
          res.setHeader('idempotent-replayed', 'true');
          res.status(stored.status ?? 200).type(stored.contentType ?? 'application/json').send(stored.body ?? '');
          return;
        }
        const target = targetOf(req.path);
        if (!target) {
          await redis.del(key);
          throw new AppError('not_found', `resource ${req.path} not found`, { code: 'NOT_FOUND' });
        }
        const headers: Record<string, string> = {
          'content-type': req.header('content-type') ?? 'application/json',
          [IDENTITY_HEADER]: String(res.locals.identityToken),
          'x-request-id': String(res.locals.requestId ?? ''),
        };
        propagation.inject(context.active(), headers);
        let answer: globalThis.Response;
        try {
          answer = await fetch(`${target}${req.originalUrl.replace(/^\/api\/v1/, '')}`, { method: 'POST', headers, body, signal: AbortSignal.timeout(30_000) });
        } catch {
          await redis.del(key);
          throw new AppError('unavailable', 'the service is temporarily unavailable; retry later', { code: 'SERVICE_UNAVAILABLE' });
        }
        const text = await answer.text();
        const contentType = answer.headers.get('content-type') ?? 'application/json';
        if (answer.status >= 500) await redis.del(key);
        else await redis.set(key, JSON.stringify({ state: 'done', fingerprint, status: answer.status, contentType, body: text } satisfies Stored), 'EX', ttlSeconds);
        res.status(answer.status).type(contentType).send(text);
      } catch (e) {
        next(e);
      }
    });
  };
}
