import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import type { Redis } from '@inv/service-kit';

export interface Session {
  companyId: string;
  companyName: string;
  memberId: string;
  email: string;
  role: string;
  plan: string;
  /** Synchronizer token every form of the signed-in pages carries. */
  csrf: string;
}

export const SESSION_COOKIE = 'inv_session';
export const CSRF_COOKIE = 'inv_csrf';
const TTL_SECONDS = 8 * 3600;
const ID = /^[\w-]{43}$/;

export function cookiesOf(req: Request): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0) out[part.slice(0, i).trim()] = decodeURIComponent(part.slice(i + 1).trim());
  }
  return out;
}

/** Cookies: httpOnly, SameSite=Strict, path /app, Secure whenever the request came over HTTPS or in production. */
export const cookieOptions = (req: Request, production: boolean, maxAgeMs?: number) => ({
  httpOnly: true,
  sameSite: 'strict' as const,
  secure: production || req.secure,
  path: '/app',
  ...(maxAgeMs ? { maxAge: maxAgeMs } : {}),
});

export const sameToken = (a: string | undefined, b: string | undefined) =>
  !!a && !!b && a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
export const newToken = () => randomBytes(32).toString('base64url');

/** Sessions of the web app in Redis (shared by every gateway replica), for 8 hours. */
export function sessionStore(redis: Redis, production: boolean) {
  const key = (id: string) => `websession:${id}`;
  return {
    async get(req: Request): Promise<Session | undefined> {
      const id = cookiesOf(req)[SESSION_COOKIE];
      if (!id || !ID.test(id)) return undefined;
      const raw = await redis.get(key(id));
      return raw ? (JSON.parse(raw) as Session) : undefined;
    },
    async create(req: Request, res: Response, s: Omit<Session, 'csrf'>): Promise<void> {
      const id = newToken();
      await redis.set(key(id), JSON.stringify({ ...s, csrf: newToken() }), 'EX', TTL_SECONDS);
      res.cookie(SESSION_COOKIE, id, cookieOptions(req, production, TTL_SECONDS * 1000));
    },
    async destroy(req: Request, res: Response): Promise<void> {
      const id = cookiesOf(req)[SESSION_COOKIE];
      if (id && ID.test(id)) await redis.del(key(id));
      res.clearCookie(SESSION_COOKIE, cookieOptions(req, production));
    },
  };
}
export type SessionStore = ReturnType<typeof sessionStore>;
