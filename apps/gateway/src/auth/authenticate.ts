import { createHash } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { LRUCache } from 'lru-cache';
import { ApiKeyVerified } from '@inv/contracts';
import {
  AppError,
  COMPANY_HEADER,
  IDENTITY_HEADER,
  serviceClient,
  ServiceAnswerInvalid,
  ServiceUnavailable,
  unauthenticated,
  type Identity,
  type IdentitySigner,
  type Logger,
} from '@inv/service-kit';
import { asCompanyId, companyOfMode } from '@inv/contracts';
import { setRateLimitHeaders } from '../http/rate-limit';
import type { FailedAuthLimiter } from '@inv/service-kit';
import type { KeyCache, VerifiedKey } from './key-cache';

const KEY_PATTERN = /^ak_(live|test)_[0-9a-f]{32}$/;
/** A member's access token (the dashboard's credential, POST /auth/sessions), sent as `Authorization: Bearer`. */
const BEARER = /^Bearer (mt_[0-9a-f]{64})$/;
const REVOKE_PATH = /^\/company\/api-keys\/([^/]+)$/;

export interface AuthDeps {
  accountUrl: string;
  signer: IdentitySigner;
  cache: KeyCache;
  limiter: FailedAuthLimiter;
  logger: Logger;
  /** Counts account-service lookups (bench and tests). */
  onLookup?: () => void;
}

const unavailable = () =>
  new AppError('unavailable', 'authentication is temporarily unavailable; retry shortly', { code: 'SERVICE_UNAVAILABLE' });

/**
 * X-API-Key -> identity. A key verified within the cache TTL is answered from memory; otherwise, unless
 * the client address has used up its failed-authentication budget (429 + Retry-After, no lookup) or the
 * key is known to be unknown (negative cache), account-service is asked. Only failures count against that
 * budget, and a key this replica verified before is never held up by it (verifyOnce). The key never leaves the
 * gateway: the header is removed, and the service gets a signed identity token instead (any
 * X-Company-Id or identity header sent by the client is dropped). Malformed keys are refused here.
 */
export function authenticate(deps: AuthDeps) {
  /** Addresses Redis said are blocked, until when: further attempts are answered 429 without a Redis round trip. */
  const blockedUntil = new LRUCache<string, number>({ max: 10_000, ttl: 60_000 });
  const { burst, perMinute } = deps.limiter.policy;
  const tooMany = (res: Response, waitMs: number) => {
    const waitS = Math.max(1, Math.ceil(waitMs / 1000));
    res.setHeader('Retry-After', String(waitS));
    // the failure budget as a RateLimit policy: `burst` failures per the time it takes to regain them all
    setRateLimitHeaders(res, 'failed-auth', burst, Math.ceil((burst / perMinute) * 60), 0, waitS);
    return new AppError('rate_limited', 'too many failed authentications from this address; retry later', {
      code: 'TOO_MANY_FAILED_AUTHENTICATIONS',
    });
  };

  // account-service's key check, through the shared signed client (the gateway's internal identity)
  const account = serviceClient({ url: deps.accountUrl, service: 'account-service', signer: deps.signer, timeoutMs: 5000 });
  async function lookup(key: string, requestId: string): Promise<VerifiedKey | undefined> {
    deps.onLookup?.();
    let answer;
    try {
      answer = await account.call({
        method: 'POST',
        path: '/internal/auth/verify',
        identity: { scope: 'internal', requestId },
        headers: { 'x-request-id': requestId },
        body: { key },
        answer: ApiKeyVerified,
      });
    } catch (err) {
      if (err instanceof ServiceUnavailable || err instanceof ServiceAnswerInvalid) throw unavailable();
      throw err;
    }
    if (answer.status === 401) return undefined;
    if (!answer.ok) throw unavailable();
    const body = answer.body;
    // a test key works on the company's test twin: its own tenant, derived here and only here (docs/test-mode.md)
    const mode = body.mode === 'test' ? 'test' : 'live';
    return {
      companyId: companyOfMode(asCompanyId(body.companyId), mode),
      mode,
      keyId: body.keyId,
      role: body.role ?? 'admin',
      plan: body.plan ?? 'pro',
      ...(body.memberId ? { memberId: body.memberId } : {}),
      ...(body.expiresAt ? { expiresAt: Date.parse(body.expiresAt) } : {}),
    };
  }

  /** Keys this replica verified within the last day (by hash): their lookups are never held up by the failure limit. */
  const verifiedBefore = new LRUCache<string, true>({ max: 100_000, ttl: 24 * 3600_000 });
  interface Outcome {
    identity?: VerifiedKey;
    /** > 0: the address has used up its failure budget; wait this long. */
    waitMs?: number;
  }
  const pending = new Map<string, Promise<Outcome>>();

  /**
   * One verification per key at a time: a burst of requests with the same uncached key waits for the first, which
   * alone takes a token from the address's failure budget (given back when the key is valid). A key verified before
   * takes none: a company behind the same address as a key-guesser is never throttled by the guesser's failures.
   */
  function verifyOnce(hash: string, key: string, client: string, requestId: string): Promise<Outcome> {
    let outcome = pending.get(hash);
    if (!outcome) {
      outcome = (async (): Promise<Outcome> => {
        const charged = !verifiedBefore.has(hash);
        if (charged) {
          const waitMs = await deps.limiter.take(client);
          if (waitMs > 0) return { waitMs };
        }
        let identity: VerifiedKey | undefined;
        try {
          identity = await lookup(key, requestId);
        } catch (err) {
          if (charged) await deps.limiter.refund(client); // our failure, not the client's
          throw err;
        }
        if (identity) {
          verifiedBefore.set(hash, true);
          if (charged) await deps.limiter.refund(client);
        } else verifiedBefore.delete(hash);
        return { identity };
      })().finally(() => pending.delete(hash));
      pending.set(hash, outcome);
    }
    return outcome;
  }

  const checkBlocked = (res: Response, client: string) => {
    const until = blockedUntil.get(client);
    if (until !== undefined && until > Date.now()) throw tooMany(res, until - Date.now());
  };
  const charge = async (res: Response, client: string) => {
    const waitMs = await deps.limiter.take(client);
    if (waitMs > 0) {
      blockedUntil.set(client, Date.now() + waitMs, { ttl: waitMs });
      throw tooMany(res, waitMs);
    }
  };

  return async (req: Request, res: Response, next: NextFunction) => {
    // an API key, or a member's access token; neither goes further than here
    const bearer = BEARER.exec(req.header('authorization') ?? '')?.[1];
    const key = req.header('x-api-key') ?? bearer;
    delete req.headers['x-api-key'];
    delete req.headers.authorization;
    delete req.headers[IDENTITY_HEADER];
    delete req.headers[COMPANY_HEADER];
    const client = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    const requestId = String(res.locals.requestId ?? '');

    const hash = key && (KEY_PATTERN.test(key) || key === bearer) ? createHash('sha256').update(key).digest('hex') : undefined;
    let identity = hash ? deps.cache.get(hash) : undefined;
    if (!identity) {
      // only failures count: a missing, malformed or known-unknown key is one; a lookup takes a token and a valid key gives it back
      if (!hash || !verifiedBefore.has(hash)) checkBlocked(res, client);
      if (!key) {
        await charge(res, client);
        throw unauthenticated('missing X-API-Key header');
      }
      if (!hash) {
        await charge(res, client);
        throw unauthenticated('malformed API key: expected ak_live_ or ak_test_ followed by 32 hexadecimal characters');
      }
      if (deps.cache.isKnownUnknown(hash)) {
        await charge(res, client);
        throw unauthenticated();
      }
      const outcome = await verifyOnce(hash, key, client, requestId);
      if (outcome.waitMs) {
        blockedUntil.set(client, Date.now() + outcome.waitMs, { ttl: outcome.waitMs });
        throw tooMany(res, outcome.waitMs);
      }
      if (!outcome.identity) {
        deps.cache.markUnknown(hash);
        throw unauthenticated();
      }
      identity = outcome.identity;
      deps.cache.set(hash, identity);
    }

    // a revocation through this replica takes effect here at once (other replicas: revocation event)
    const revoked = req.method === 'DELETE' ? REVOKE_PATH.exec(req.path) : null;
    if (revoked) deps.cache.evictKeyId(revoked[1]);

    const signed: Identity = {
      scope: 'company',
      companyId: identity.companyId,
      keyId: identity.keyId,
      ...(identity.memberId ? { memberId: identity.memberId } : {}),
      role: identity.role,
      plan: identity.plan,
      mode: identity.mode,
      requestId,
      clientIp: client,
    };
    const token = await deps.signer.sign(signed);
    req.headers[IDENTITY_HEADER] = token;
    res.locals.companyId = identity.companyId;
    res.locals.role = identity.role;
    res.locals.mode = identity.mode;
    res.locals.identityToken = token;
    // the identity as signed: the idempotency step signs it again with the request's key (http/idempotency.ts)
    res.locals.signedIdentity = signed;
    next();
  };
}
