import type { NextFunction, Request, Response } from 'express';
import { IdempotencyKeyReused, type RequestJournal } from '@inv/outbox';
import { identityOf, runIdempotent, type IdempotentRequest, type Logger } from '@inv/service-kit';

/**
 * The service's half of `Idempotency-Key` (the gateway keeps the other, a cache of answers in Redis that a 5xx or a
 * lost answer empties). A POST whose signed identity carries a key is handled as an idempotent request:
 * - its commits are journaled with their results in their own transactions (libs/outbox commit.ts), and the answer
 *   it gets is kept with them;
 * - a retry finds the journal: a kept answer is given again as it was (`Idempotent-Replayed: true`); without one
 *   (the service died between a commit and the answer) the request runs again with each commit made before
 *   answering its first result instead of writing (the same invoice, payment or e-mail, never a second one), and
 *   commits not made before run now;
 * - the same key with another request (method, path or body) is 422 IDEMPOTENCY_KEY_REUSED.
 * A request that committed nothing leaves no entry: its retry runs as new.
 */
export function idempotentRequests(journal: RequestJournal, logger: Logger) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const identity = identityOf(req);
    if (
      req.method !== 'POST' ||
      identity?.scope !== 'company' ||
      !identity.companyId ||
      !identity.idempotencyKey ||
      !identity.idempotencyFingerprint
    )
      return next();
    try {
      const request: IdempotentRequest = {
        companyId: identity.companyId,
        key: identity.idempotencyKey,
        fingerprint: identity.idempotencyFingerprint,
        commits: 0,
        replayed: [],
      };
      const earlier = await journal.find(request);
      if (earlier) {
        if (earlier.fingerprint !== request.fingerprint) throw new IdempotencyKeyReused();
        if (earlier.response) {
          const r = earlier.response;
          res.setHeader('idempotent-replayed', 'true');
          if (r.location) res.location(r.location);
          res
            .status(r.status)
            .type(r.contentType ?? 'application/json')
            .send(r.body);
          return;
        }
        request.replayed = earlier.results;
        res.setHeader('idempotent-replayed', 'true');
      }
      keepAnswer(res, request, journal, logger);
      runIdempotent(request, next);
    } catch (err) {
      next(err);
    }
  };
}

/** The answer of a request that committed something is kept before it leaves (a retry from then on gets it as it was). */
function keepAnswer(res: Response, request: IdempotentRequest, journal: RequestJournal, logger: Logger) {
  const send = res.send.bind(res);
  let kept = false;
  res.send = (body?: unknown) => {
    if (kept || request.commits === 0 || res.statusCode >= 500) return send(body);
    kept = true;
    const text = typeof body === 'string' ? body : Buffer.isBuffer(body) ? body.toString('utf8') : JSON.stringify(body ?? '');
    const contentType = res.getHeader('content-type');
    const location = res.getHeader('location');
    journal
      .saveResponse(request, {
        status: res.statusCode,
        contentType: typeof contentType === 'string' ? contentType : undefined,
        location: typeof location === 'string' ? location : undefined,
        body: text,
      })
      .catch((err: unknown) =>
        logger.warn({ err }, 'could not keep the answer of an idempotent request (a retry runs it again, its commits replayed)'),
      )
      .finally(() => send(body));
    return res;
  };
}
