import { createCipheriv, createDecipheriv, randomBytes, timingSafeEqual } from 'node:crypto';
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

/**
 * What a form's POST leaves for the page it redirects to (Post/Redirect/Get): a message, and a new key's secret.
 * Kept in Redis next to the session for a few minutes and deleted by the GET that shows it, so the secret is shown
 * exactly once, never travels in a URL, and a reload repeats nothing. Redis holds it encrypted (AES-256-GCM, bound
 * to the session) under a key that only the browser holds (the httpOnly cookie inv_flash, as long-lived): like the
 * idempotency records, Redis never holds an API key's secret.
 */
export interface Flash {
  kind: 'ok' | 'error';
  text: string;
  secret?: string;
}

export const SESSION_COOKIE = 'inv_session';
export const CSRF_COOKIE = 'inv_csrf';
export const FLASH_COOKIE = 'inv_flash';
const TTL_SECONDS = 8 * 3600;
const FLASH_TTL_SECONDS = 300;
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
  const flashKey = (id: string) => `webflash:${id}`;
  const idOf = (req: Request) => {
    const id = cookiesOf(req)[SESSION_COOKIE];
    return id && ID.test(id) ? id : undefined;
  };
  return {
    /** Leaves a message (and a new key's secret) for the next page of this session. */
    async flash(req: Request, res: Response, f: Flash): Promise<void> {
      const id = idOf(req);
      if (!id) return;
      const secret = randomBytes(32);
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', secret, iv).setAAD(Buffer.from(id));
      const sealed = Buffer.concat([cipher.update(JSON.stringify(f), 'utf8'), cipher.final()]);
      await redis.set(flashKey(id), Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url'), 'EX', FLASH_TTL_SECONDS);
      res.cookie(FLASH_COOKIE, secret.toString('base64url'), cookieOptions(req, production, FLASH_TTL_SECONDS * 1000));
    },
    /** Takes the message left for this page: read and deleted in one step (a second request finds nothing). */
    async takeFlash(req: Request, res: Response): Promise<Flash | undefined> {
      const id = idOf(req);
      const secret = cookiesOf(req)[FLASH_COOKIE];
      if (!id || !secret) return undefined;
      res.clearCookie(FLASH_COOKIE, cookieOptions(req, production));
      const [[, raw] = []] = ((await redis.multi().get(flashKey(id)).del(flashKey(id)).exec()) ?? []) as [unknown, unknown][];
      if (typeof raw !== 'string') return undefined;
      try {
        const box = Buffer.from(raw, 'base64url');
        const decipher = createDecipheriv('aes-256-gcm', Buffer.from(secret, 'base64url'), box.subarray(0, 12))
          .setAAD(Buffer.from(id))
          .setAuthTag(box.subarray(12, 28));
        return JSON.parse(Buffer.concat([decipher.update(box.subarray(28)), decipher.final()]).toString('utf8')) as Flash;
      } catch {
        return undefined; // another browser's key, or none: nothing to show
      }
    },
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
      if (id && ID.test(id)) await redis.del(key(id), flashKey(id));
      res.clearCookie(SESSION_COOKIE, cookieOptions(req, production));
    },
  };
}
export type SessionStore = ReturnType<typeof sessionStore>;
