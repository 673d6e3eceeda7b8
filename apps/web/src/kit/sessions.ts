import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import type { Redis } from '@inv/service-kit';

/**
 * A signed-in browser. The browser's cookie holds the member session's secret, which account-service issued at sign-in
 * (it keeps only its hash): nothing here can act for the member without the browser. Redis holds, under the cookie's
 * hash, what the pages show (company, member, role) and the current short-lived access token, sealed with a key derived
 * from the cookie (AES-256-GCM): Redis alone holds no usable credential.
 */
export interface Session {
  companyId: string;
  companyName: string;
  memberId: string;
  email: string;
  role: string;
  plan: string;
  /** Which data the pages show: the live company or its test twin (docs/test-mode.md). */
  mode: 'live' | 'test';
  /** Synchronizer token every form of the signed-in pages carries. */
  csrf: string;
  /** The access token the pages call the API with (in memory only: Redis holds it sealed), and until when it holds. */
  access?: string;
  accessExpiresAt?: number;
}
interface Stored extends Omit<Session, 'access'> {
  sealedAccess?: string;
}

/**
 * What a form's POST leaves for the page it redirects to (Post/Redirect/Get): a message, and a new key's secret.
 * Kept in Redis next to the session for a few minutes and deleted by the GET that shows it, so the secret is shown
 * exactly once, never travels in a URL, and a reload repeats nothing. Redis holds it sealed (AES-256-GCM, bound
 * to the session) under a key that only the browser holds (the httpOnly cookie inv_flash, as long-lived).
 */
export interface Flash {
  kind: 'ok' | 'error';
  text: string;
  secret?: string;
}

export const SESSION_COOKIE = 'inv_session';
export const CSRF_COOKIE = 'inv_csrf';
export const FLASH_COOKIE = 'inv_flash';
const FLASH_TTL_SECONDS = 300;
/** The member session's secret as account-service issues it. */
const SESSION_SECRET = /^ms_[0-9a-f]{64}$/;

export function cookiesOf(req: Request): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0) {
      try {
        out[part.slice(0, i).trim()] = decodeURIComponent(part.slice(i + 1).trim());
      } catch {
        // a malformed cookie is no cookie
      }
    }
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

const seal = (key: Buffer, aad: string, plain: string) => {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(aad));
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
};
const unseal = (key: Buffer, aad: string, raw: string): string | undefined => {
  try {
    const box = Buffer.from(raw, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', key, box.subarray(0, 12)).setAAD(Buffer.from(aad)).setAuthTag(box.subarray(12, 28));
    return Buffer.concat([decipher.update(box.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined; // another browser's key, or none
  }
};

/** The browser sessions of the web app in Redis (shared by every replica), as long as the member session holds. */
export function sessionStore(redis: Redis, production: boolean) {
  const secretOf = (req: Request) => {
    const v = cookiesOf(req)[SESSION_COOKIE];
    return v && SESSION_SECRET.test(v) ? v : undefined;
  };
  const idOf = (secret: string) => createHash('sha256').update(`id:${secret}`).digest('base64url');
  const keyOf = (secret: string) => createHash('sha256').update(`access:${secret}`).digest();
  const key = (id: string) => `websession:${id}`;
  const flashKey = (id: string) => `webflash:${id}`;
  return {
    /** The member session's secret of this browser (for refreshing the access token and signing out). */
    secretOf,
    /** Leaves a message (and a new key's secret) for the next page of this session. */
    async flash(req: Request, res: Response, f: Flash): Promise<void> {
      const secret = secretOf(req);
      if (!secret) return;
      const id = idOf(secret);
      const flashSecret = randomBytes(32);
      await redis.set(flashKey(id), seal(flashSecret, id, JSON.stringify(f)), 'EX', FLASH_TTL_SECONDS);
      res.cookie(FLASH_COOKIE, flashSecret.toString('base64url'), cookieOptions(req, production, FLASH_TTL_SECONDS * 1000));
    },
    /** Takes the message left for this page: read and deleted in one step (a second request finds nothing). */
    async takeFlash(req: Request, res: Response): Promise<Flash | undefined> {
      const secret = secretOf(req);
      const flashSecret = cookiesOf(req)[FLASH_COOKIE];
      if (!secret || !flashSecret) return undefined;
      const id = idOf(secret);
      res.clearCookie(FLASH_COOKIE, cookieOptions(req, production));
      const [[, raw] = []] = ((await redis.multi().get(flashKey(id)).del(flashKey(id)).exec()) ?? []) as [unknown, unknown][];
      if (typeof raw !== 'string') return undefined;
      const plain = unseal(Buffer.from(flashSecret, 'base64url'), id, raw);
      return plain ? (JSON.parse(plain) as Flash) : undefined;
    },
    async get(req: Request): Promise<Session | undefined> {
      const secret = secretOf(req);
      if (!secret) return undefined;
      const raw = await redis.get(key(idOf(secret)));
      if (!raw) return undefined;
      const { sealedAccess, ...stored } = JSON.parse(raw) as Stored;
      const access = sealedAccess ? unseal(keyOf(secret), idOf(secret), sealedAccess) : undefined;
      return { ...stored, ...(access ? { access } : { accessExpiresAt: undefined }) };
    },
    /** Keeps the session (its access token sealed) for as long as the member session holds. */
    async save(req: Request, s: Session, expiresAt: number, secret = secretOf(req)): Promise<void> {
      if (!secret) return;
      const { access, ...rest } = s;
      const stored: Stored = { ...rest, ...(access ? { sealedAccess: seal(keyOf(secret), idOf(secret), access) } : {}) };
      const ttl = Math.max(1, Math.ceil((expiresAt - Date.now()) / 1000));
      await redis.set(key(idOf(secret)), JSON.stringify(stored), 'EX', ttl);
    },
    /** A new browser session for a member session account-service just issued. */
    async create(req: Request, res: Response, secret: string, s: Omit<Session, 'csrf'>, expiresAt: number): Promise<void> {
      await this.save(req, { ...s, csrf: newToken() }, expiresAt, secret);
      res.cookie(SESSION_COOKIE, secret, cookieOptions(req, production, Math.max(1000, expiresAt - Date.now())));
    },
    async destroy(req: Request, res: Response): Promise<void> {
      const secret = secretOf(req);
      if (secret) await redis.del(key(idOf(secret)), flashKey(idOf(secret)));
      res.clearCookie(SESSION_COOKIE, cookieOptions(req, production));
    },
  };
}
export type SessionStore = ReturnType<typeof sessionStore>;
