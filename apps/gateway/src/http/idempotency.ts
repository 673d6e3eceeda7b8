import { createHash } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import { AppError, IDENTITY_HEADER, redactSecrets, notFound, type Identity, type IdentitySigner, type Redis } from '@inv/service-kit';
import { holdAnswer, type UpstreamAnswer } from './proxy';

interface Stored {
  state: 'pending' | 'done';
  fingerprint: string;
  status?: number;
  contentType?: string;
  body?: string;
}

const KEY_PATTERN = /^[\w.:-]{1,255}$/;

/** Answers larger than this are passed on but not kept (the key is released: a retry runs again). */
const MAX_KEPT_ANSWER_BYTES = 1024 * 1024;

/**
 * `Idempotency-Key` on POST (IETF draft httpapi-idempotency-key-header): the first request is forwarded
 * and its answer kept for the TTL; a retry with the same key and body gets the same answer without
 * running again; the same key with another body is 422; a retry while the first is still running is 409.
 * These requests are buffered (up to 1 MB, for the fingerprint) and forwarded by the same proxy as every
 * other request (its timeouts, headers, trace context and error answers), which hands the answer back
 * to be kept. 5xx answers, proxy errors and answers cut short are not kept: the client can retry them.
 */
export function idempotency(redis: Redis, ttlSeconds: number, targetOf: (path: string) => string | undefined, signer: IdentitySigner) {
  const readBody = express.raw({ type: () => true, limit: '1mb' });
  return (req: Request, res: Response, next: NextFunction) => {
    const idemKey = req.header('idempotency-key');
    if (req.method !== 'POST' || idemKey === undefined) return next();
    if (!KEY_PATTERN.test(idemKey))
      throw new AppError('invalid_data', 'Idempotency-Key must be 1-255 characters of letters, digits, _ . : -', {
        code: 'INVALID_IDEMPOTENCY_KEY',
      });
    if (!targetOf(req.path)) throw notFound(`resource ${req.path}`);
    readBody(req, res, async (err?: unknown) => {
      try {
        if (err) throw err;
        const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const fingerprint = createHash('sha256').update(`${req.method} ${req.originalUrl}\n`).update(body).digest('hex');
        const key = `idem:${String(res.locals.companyId)}:${idemKey}`;
        const claimed = await redis.set(key, JSON.stringify({ state: 'pending', fingerprint } satisfies Stored), 'EX', ttlSeconds, 'NX');
        if (!claimed) {
          const stored = JSON.parse((await redis.get(key)) ?? '{}') as Partial<Stored>;
          if (stored.fingerprint !== fingerprint)
            throw new AppError('unprocessable', 'this Idempotency-Key was used with a different request', {
              code: 'IDEMPOTENCY_KEY_REUSED',
            });
          if (stored.state !== 'done')
            throw new AppError('conflict', 'a request with this Idempotency-Key is still being processed; retry shortly', {
              code: 'IDEMPOTENCY_IN_PROGRESS',
            });
          res.setHeader('idempotent-replayed', 'true');
          res
            .status(stored.status ?? 200)
            .type(stored.contentType ?? 'application/json')
            .send(stored.body ?? '');
          return;
        }
        // the service gets the key and the fingerprint signed: it journals what the request commits under them, so a
        // retry after a lost answer (which empties this cache) answers the first result (libs/runtime idempotent-requests.ts)
        const identity = res.locals.signedIdentity as Identity | undefined;
        if (identity)
          req.headers[IDENTITY_HEADER] = await signer.sign({ ...identity, idempotencyKey: idemKey, idempotencyFingerprint: fingerprint });
        let kept = false;
        holdAnswer(res, body, MAX_KEPT_ANSWER_BYTES, (answer: UpstreamAnswer) => {
          if (answer.status >= 500) return;
          kept = true;
          const done: Stored = {
            state: 'done',
            fingerprint,
            status: answer.status,
            contentType: answer.contentType ?? 'application/json',
            // a secret in the answer (a new API key) is shown once: the replay names the key but not its secret
            body: redactSecrets(answer.body.toString('utf8')),
          };
          void redis.set(key, JSON.stringify(done), 'EX', ttlSeconds).catch(() => undefined);
        });
        // whatever else ends the exchange (a proxy error, a 5xx, a client gone) releases the key for a retry
        res.once('close', () => {
          if (!kept) void redis.del(key).catch(() => undefined);
        });
        next();
      } catch (e) {
        next(e);
      }
    });
  };
}
