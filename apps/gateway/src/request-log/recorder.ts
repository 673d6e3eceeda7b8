import type { NextFunction, Request, Response } from 'express';
import { asCompanyId } from '@inv/contracts';
import { redactSecrets, type Identity, type Logger } from '@inv/service-kit';
import type { RecordedRequest, RequestLogStore } from './store';

/** Longest path (with its query string) and Idempotency-Key kept. */
export const MAX_LOGGED_PATH = 512;
export const MAX_LOGGED_IDEMPOTENCY_KEY = 255;
/** A Redis failure is reported at most this often (every request would otherwise report it). */
const WARN_EVERY_MS = 10_000;

const MOUNT = '/api/v1';
/** Reads of the request log are not recorded in it: a page polling it would push out what it shows. */
const OWN_PATH = /^\/+request-log(\/|\?|$)/i;

/**
 * Records each authenticated request below /api/v1 in its company's request log when the exchange ends (also answers
 * the gateway gave itself after authentication: 403, 400, 429, 413 and the like): method, path with query string,
 * status, duration, request id, Idempotency-Key and the key's id, never a header's value or a body. An API key pasted
 * into a path or an Idempotency-Key is masked. Fire and forget: a Redis failure is logged and never fails the request.
 * A request that failed authentication has no company and is not recorded.
 */
export function recordRequests(store: RequestLogStore, logger: Logger) {
  let warnedAt = 0;
  const failed = (err: unknown) => {
    const now = Date.now();
    if (now - warnedAt < WARN_EVERY_MS) return;
    warnedAt = now;
    logger.warn({ err }, 'request log in Redis failed; requests are not recorded');
  };

  return (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    res.once('close', () => {
      const companyId: unknown = res.locals.companyId;
      if (typeof companyId !== 'string' || !companyId) return;
      const url = req.originalUrl.startsWith(MOUNT) ? req.originalUrl.slice(MOUNT.length) : req.originalUrl;
      if (OWN_PATH.test(url)) return;
      const idempotencyKey = req.header('idempotency-key');
      const identity = res.locals.signedIdentity as Identity | undefined;
      const entry: RecordedRequest = {
        request_id: String(res.locals.requestId ?? ''),
        method: req.method,
        path: redactSecrets(url).slice(0, MAX_LOGGED_PATH),
        // an exchange the client gave up before its answer began: 499, as proxies log it
        status: res.headersSent ? res.statusCode : 499,
        duration_ms: Math.round(performance.now() - started),
        idempotency_key: idempotencyKey === undefined ? null : redactSecrets(idempotencyKey).slice(0, MAX_LOGGED_IDEMPOTENCY_KEY),
        key_id: identity?.keyId ?? null,
        mode: res.locals.mode === 'test' ? 'test' : 'live',
        created_at: new Date().toISOString(),
      };
      store.append(asCompanyId(companyId), entry).catch(failed);
    });
    next();
  };
}
