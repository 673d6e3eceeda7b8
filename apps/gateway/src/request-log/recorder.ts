import type { NextFunction, Request, Response } from 'express';
import { asCompanyId, type CompanyId } from '@inv/contracts';
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

export interface RecorderOptions {
  /** Entries are written together at most this long after their answer: one Redis round trip for all of them. */
  flushMs?: number;
  /** Entries waiting at most (while a write is under way or Redis is away); more are dropped and reported. */
  maxQueued?: number;
  /** How long `stop` waits for the last write. */
  stopTimeoutMs?: number;
}

/**
 * Records each authenticated request below /api/v1 in its company's request log when the exchange ends (also answers
 * the gateway gave itself after authentication: 403, 400, 429, 413 and the like): method, path with query string,
 * status, duration, request id, Idempotency-Key and the key's id, never a header's value or a body. An API key pasted
 * into a path or an Idempotency-Key is masked. A request that failed authentication has no company and is not recorded.
 *
 * Fire and forget: the entries of the last `flushMs` are written in one pipeline, one write at a time, so the cost per
 * request is a small share of a round trip; a Redis failure is logged (once per 10 s) and never fails a request, and
 * while Redis is away at most `maxQueued` entries wait.
 */
export function createRequestRecorder(store: RequestLogStore, logger: Logger, opts: RecorderOptions = {}) {
  const flushMs = opts.flushMs ?? 25;
  const maxQueued = opts.maxQueued ?? 10_000;
  let queue: { companyId: CompanyId; entry: RecordedRequest }[] = [];
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> | undefined;
  let dropped = 0;
  let warnedAt = 0;

  const report = (err: unknown) => {
    const now = Date.now();
    if (now - warnedAt < WARN_EVERY_MS) return;
    warnedAt = now;
    logger.warn({ err, dropped }, 'request log in Redis failed; requests are not recorded');
  };
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (writing || !queue.length) return;
    const batch = queue;
    queue = [];
    writing = store
      .append(batch)
      .catch(report)
      .finally(() => {
        writing = undefined;
        schedule();
      });
  };
  const schedule = () => {
    if (timer || writing || !queue.length) return;
    timer = setTimeout(flush, flushMs);
    timer.unref();
  };

  const middleware = (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    res.once('close', () => {
      const companyId: unknown = res.locals.companyId;
      // a sign-in (/auth/*) belongs to no company's log: it is counted per client address only
      if (typeof companyId !== 'string' || !companyId || res.locals.publicAuth) return;
      const url = req.originalUrl.startsWith(MOUNT) ? req.originalUrl.slice(MOUNT.length) : req.originalUrl;
      if (OWN_PATH.test(url)) return;
      if (queue.length >= maxQueued) {
        dropped++;
        return report(new Error(`${maxQueued} entries wait for Redis already; this one is dropped`));
      }
      const idempotencyKey = req.header('idempotency-key');
      const identity = res.locals.signedIdentity as Identity | undefined;
      queue.push({
        companyId: asCompanyId(companyId),
        entry: {
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
        },
      });
      schedule();
    });
    next();
  };

  return {
    middleware,
    /** Writes what waits (bounded by `stopTimeoutMs`): call after the server stopped taking requests. */
    async stop() {
      clearTimeout(timer);
      timer = undefined;
      const deadline = Date.now() + (opts.stopTimeoutMs ?? 2_000);
      while ((queue.length || writing) && Date.now() < deadline) {
        flush();
        let giveUp: NodeJS.Timeout | undefined;
        await Promise.race([writing, new Promise((r) => (giveUp = setTimeout(r, Math.max(0, deadline - Date.now()))))]);
        clearTimeout(giveUp);
      }
    },
  };
}
