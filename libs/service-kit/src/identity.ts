import { createHash, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { errors as joseErrors, jwtVerify, SignJWT, decodeProtectedHeader } from 'jose';
import { z } from 'zod';
import { missingPermission, modeOfCompany, type ApiKeyMode } from '@inv/contracts';
import { ConfigError } from './config';
import type { Logger } from './logger';
import { problem } from './problem';
import { actorOf, runWithActor } from './request-actor';

/**
 * Trust inside the system. The gateway authenticates the API key and forwards the identity it found as a
 * short-lived JWS (HS256, jose) in this header; every service verifies it before any handler runs, so a
 * request that did not pass through the gateway (a direct call to a service port, a forged X-Company-Id)
 * is refused with 401. The signing keys come from IDENTITY_SIGNING_KEYS (a Secret): a comma-separated
 * list, the first signs, all verify, so a key can be rotated without downtime (see SECURITY.md).
 */
export const IDENTITY_HEADER = 'x-identity-token';

const ISSUER = 'inv-gateway';
const AUDIENCE = 'inv-services';
/** Lifetime of a token: it is minted per request and verified on arrival, so a minute is plenty. */
export const IDENTITY_TOKEN_TTL_SECONDS = 60;
const CLOCK_TOLERANCE_SECONDS = 5;
const MIN_KEY_LENGTH = 32;

export interface Identity {
  /** 'company': a request on behalf of an authenticated API key; 'internal': the gateway itself (/internal/*). */
  scope: 'company' | 'internal';
  companyId?: string;
  keyId?: string;
  /** The member signed in to the web app (instead of an API key). */
  memberId?: string;
  /** The role whose permissions the key or member has (owner, admin, member, viewer). */
  role?: string;
  plan?: string;
  requestId?: string;
  /** The client's address as the gateway saw it (for the audit log). */
  clientIp?: string;
  /** A POST's `Idempotency-Key` (libs/service-kit idempotent-request.ts), with the gateway's fingerprint of the request. */
  idempotencyKey?: string;
  idempotencyFingerprint?: string;
  /**
   * test: the request works on the company's test twin (docs/test-mode.md); absent: live. A verified identity's mode is
   * derived from the company id (a twin's id is test), so a token's `mode` claim can only repeat what the id says.
   */
  mode?: ApiKeyMode;
}

const claimsSchema = z.object({
  scope: z.enum(['company', 'internal']),
  sub: z.string().min(1).max(200),
  key_id: z.string().max(200).optional(),
  member_id: z.string().max(200).optional(),
  role: z.string().max(50).optional(),
  client_ip: z.string().max(100).optional(),
  plan: z.string().max(50).optional(),
  request_id: z.string().max(200).optional(),
  idem: z
    .string()
    .regex(/^[\w.:-]{1,255}$/)
    .optional(),
  idem_fp: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  mode: z.enum(['live', 'test']).optional(),
});

/** Env fragment: comma-separated signing keys, each at least 32 characters (first signs, all verify). */
export const identityKeysEnv = z
  .string()
  .optional()
  .transform((s) =>
    (s ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean),
  )
  .refine(
    (keys) => keys.every((k) => k.length >= MIN_KEY_LENGTH),
    `every key must be at least ${MIN_KEY_LENGTH} characters (e.g. openssl rand -hex 32)`,
  );

/**
 * The keys a process signs/verifies with. Production refuses to start without them; elsewhere a random
 * key for this process is generated (then only a gateway given the same key can call it: `npm start`
 * passes one key to every service it launches).
 */
export function resolveIdentityKeys(env: { NODE_ENV: string; IDENTITY_SIGNING_KEYS?: string[] }, logger?: Logger): string[] {
  if (env.IDENTITY_SIGNING_KEYS?.length) return env.IDENTITY_SIGNING_KEYS;
  if (env.NODE_ENV === 'production')
    throw new ConfigError(['IDENTITY_SIGNING_KEYS: required in production (the HMAC key shared by the gateway and the services)']);
  logger?.warn('IDENTITY_SIGNING_KEYS is unset: using a random key for this process; only a gateway started with the same key can call it');
  return [randomBytes(32).toString('hex')];
}

/** Key id in the JWS header: a short digest, so the verifier picks the right key without trying all. */
const kidOf = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 16);
/**
 * The key as a KeyObject, made once: given bytes, jose imports them into a KeyObject on every sign and verify
 * (`createSecretKey` was in the gateway's profile); ~5–10 µs per token less (docs/performance.md).
 */
const encode = (key: string): KeyObject => createSecretKey(Buffer.from(key, 'utf8'));

export function createIdentitySigner(keys: string[], ttlSeconds = IDENTITY_TOKEN_TTL_SECONDS) {
  if (!keys.length) throw new Error('identity signer needs at least one key');
  const key = encode(keys[0]);
  const kid = kidOf(keys[0]);
  return {
    sign(identity: Identity): Promise<string> {
      const sub = identity.scope === 'company' ? identity.companyId : 'gateway';
      if (!sub) throw new Error('a company identity needs a companyId');
      return new SignJWT({
        scope: identity.scope,
        key_id: identity.keyId,
        member_id: identity.memberId,
        role: identity.role,
        plan: identity.plan,
        request_id: identity.requestId,
        client_ip: identity.clientIp,
        idem: identity.idempotencyKey,
        idem_fp: identity.idempotencyFingerprint,
        mode: identity.scope === 'company' ? modeOfCompany(sub) : undefined,
      })
        .setProtectedHeader({ alg: 'HS256', kid, typ: 'JWT' })
        .setSubject(sub)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(key);
    },
  };
}
export type IdentitySigner = ReturnType<typeof createIdentitySigner>;

/** Why a token was refused (logged at warn; never the token itself). */
export class IdentityRejected extends Error {}

export function createIdentityVerifier(keys: string[]) {
  const byKid = new Map(keys.map((k) => [kidOf(k), encode(k)]));
  return {
    async verify(token: string | undefined): Promise<Identity> {
      if (!token) throw new IdentityRejected('no identity token');
      if (token.length > 4096) throw new IdentityRejected('identity token too long');
      let kid: string | undefined;
      try {
        kid = decodeProtectedHeader(token).kid;
      } catch {
        throw new IdentityRejected('malformed identity token');
      }
      const key = kid ? byKid.get(kid) : undefined;
      if (!key) throw new IdentityRejected('identity token signed with an unknown key');
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: AUDIENCE,
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
          requiredClaims: ['exp', 'iat', 'sub'],
          maxTokenAge: `${IDENTITY_TOKEN_TTL_SECONDS * 2}s`,
        });
        const claims = claimsSchema.parse(payload);
        if (claims.scope === 'internal') return { scope: 'internal', requestId: claims.request_id };
        const mode = modeOfCompany(claims.sub);
        if (claims.mode !== undefined && claims.mode !== mode) throw new IdentityRejected('identity token mode and company disagree');
        return {
          scope: 'company',
          companyId: claims.sub,
          ...(mode === 'test' ? { mode } : {}),
          keyId: claims.key_id,
          memberId: claims.member_id,
          role: claims.role,
          plan: claims.plan,
          requestId: claims.request_id,
          clientIp: claims.client_ip,
          ...(claims.idem && claims.idem_fp ? { idempotencyKey: claims.idem, idempotencyFingerprint: claims.idem_fp } : {}),
        };
      } catch (err) {
        if (err instanceof IdentityRejected) throw err;
        if (err instanceof joseErrors.JWTExpired) throw new IdentityRejected('identity token expired');
        if (err instanceof joseErrors.JWSSignatureVerificationFailed) throw new IdentityRejected('identity token signature invalid');
        throw new IdentityRejected('identity token invalid');
      }
    },
  };
}
export type IdentityVerifier = ReturnType<typeof createIdentityVerifier>;

/** Paths every process answers without a token: probes and the metrics scrape (never routed by the gateway). */
const UNAUTHENTICATED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Verifies the identity token before any handler: 401 problem+json otherwise, logged at warn with the
 * caller's address. `/internal/*` needs the gateway's internal scope; company routes need a company.
 * Any X-Company-Id header sent by the caller is dropped: the company comes only from the token.
 */
export function requireIdentity(verifier: IdentityVerifier, logger: Logger) {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (UNAUTHENTICATED_PATHS.has(req.path)) return next();
    delete req.headers['x-company-id'];
    try {
      const identity = await verifier.verify(req.header(IDENTITY_HEADER));
      if (req.path.startsWith('/internal/') && identity.scope !== 'internal')
        throw new IdentityRejected('internal endpoint needs the gateway identity');
      // the permission again, from the signed role and the path exactly as this service routes it: a spelling the
      // gateway judged otherwise, or a caller other than the API (the web app), cannot get around it
      const missing =
        identity.scope === 'company' && identity.role !== undefined ? missingPermission(identity.role, req.method, req.path) : undefined;
      if (missing) {
        res
          .status(403)
          .type('application/problem+json')
          .json(
            problem(403, 'FORBIDDEN', `the role ${identity.role} lacks the permission ${missing}`, {
              missing_permission: missing,
              role: identity.role,
            }),
          );
        return;
      }
      res.locals.identity = identity;
      // messages built while handling this request name its caller (libs/runtime eventMessage)
      const actor = actorOf(identity);
      if (actor) runWithActor(actor, next);
      else next();
    } catch (err) {
      if (!(err instanceof IdentityRejected)) return next(err);
      logger.warn(
        { caller: req.socket.remoteAddress, method: req.method, path: req.path, reason: err.message },
        'request without a valid identity token refused',
      );
      res
        .status(401)
        .type('application/problem+json')
        .json(problem(401, 'UNAUTHENTICATED', 'requests must come through the gateway'));
    }
  };
}

export function identityOf(req: Request): Identity | undefined {
  return req.res?.locals.identity as Identity | undefined;
}
