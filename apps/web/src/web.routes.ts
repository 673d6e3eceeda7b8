import express, { Router, type Request, type Response } from 'express';
import { MemberSession, MessageBody } from '@inv/contracts';
import { APP_CSS, APP_CSS_VERSION, APP_JS, page } from './kit/html';
import { pickLang, texts, type Lang } from './kit/i18n';
import { gatewayApi } from './kit/api-client';
import { pageHelpers, type Ctx, type PagesKit } from './kit/pages-kit';
import { cookieOptions, cookiesOf, sameToken, sessionStore, type Session } from './kit/sessions';
import type { WebDeps } from './deps';
import { registerPages } from './pages';

export type { WebDeps } from './deps';

/** The dashboard page a same-origin Referer names (its path only), or undefined for anything else or a malformed one. */
export function dashboardPathOf(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    const path = new URL(referer).pathname;
    return path.startsWith('/app/') ? path : undefined;
  } catch {
    return undefined;
  }
}

/** An access token is renewed when less than this is left of it (a page's calls never meet an expired one). */
const RENEW_BEFORE_MS = 60_000;

/**
 * The dashboard under /app/: server-rendered pages (the gateway proxies /app/ here). It is a client of the public API
 * like any integrator: a member signs in through POST /auth/sessions, the browser keeps the member session's secret
 * in an httpOnly cookie, and the pages call the API with the session's short-lived access token, which the gateway
 * checks like an API key. Forms carry a CSRF token (per session; before sign-in a double-submit cookie) and must come
 * from this origin.
 */
export function webRoutes(deps: WebDeps): Router {
  const router = Router();
  const sessions = sessionStore(deps.redis, deps.production);
  const gateway = gatewayApi({ gatewayUrl: deps.gatewayUrl, logger: deps.logger });
  router.use(express.urlencoded({ extended: false, limit: '64kb', parameterLimit: 200 }));
  // same-origin (not helmet's no-referrer): with no-referrer a browser's form posts say `Origin: null`
  router.use((_req, res, next) => {
    res.setHeader('referrer-policy', 'same-origin');
    next();
  });

  const langOf = (req: Request, res: Response): Lang => {
    const lang = pickLang(req.query.lang, cookiesOf(req).lang, req.header('accept-language'));
    if (req.query.lang === lang) res.cookie('lang', lang, { ...cookieOptions(req, deps.production, 365 * 86_400_000), httpOnly: false });
    return lang;
  };
  const send = (res: Response, status: number, html: string) =>
    res.status(status).type('html').setHeader('cache-control', 'no-store').send(html);
  const sameOrigin = (req: Request) => {
    const origin = req.header('origin') ?? req.header('referer');
    if (!origin) return true; // a browser sends one of them on a cross-site form post; SameSite=Strict covers the rest
    try {
      return new URL(origin).host === req.header('host');
    } catch {
      return false;
    }
  };
  const field = (req: Request, name: string) => (typeof req.body?.[name] === 'string' ? (req.body[name] as string) : '');
  const requestIdOf = (res: Response) => String(res.locals.requestId ?? '');
  const asMember: PagesKit['asMember'] = (_req, res, s, idempotencyKey) => ({
    token: s.access,
    requestId: requestIdOf(res),
    ...(idempotencyKey ? { idempotencyKey } : {}),
  });

  router.get('/app.js', (_req, res) => void res.type('text/javascript').setHeader('cache-control', 'no-cache').send(APP_JS));
  // the stylesheet: its URL carries its version, so a page asks for a changed one at once and it may be cached long
  router.get(
    '/app.css',
    (req, res) =>
      void res
        .type('text/css')
        .setHeader('cache-control', req.query.v === APP_CSS_VERSION ? 'public, max-age=31536000, immutable' : 'no-cache')
        .send(APP_CSS),
  );

  /** A fresh access token for the session (the member as it is now: removed -> undefined, a changed role applies). */
  async function renewed(req: Request, res: Response, s: Session, mode: 'live' | 'test'): Promise<Session | undefined> {
    const secret = sessions.secretOf(req);
    if (!secret) return undefined;
    const answer = await gateway.call(
      'POST',
      '/auth/sessions/refresh',
      { session_token: secret, mode },
      { requestId: requestIdOf(res) },
      MemberSession,
    );
    if (!answer.ok) return answer.status === 401 || answer.status === 400 ? undefined : s;
    const a = answer.body;
    const next: Session = {
      ...s,
      role: a.member.role,
      plan: a.company.plan,
      companyName: a.company.name,
      mode: a.mode,
      access: a.access_token,
      accessExpiresAt: Date.parse(a.access_expires_at),
    };
    await sessions.save(req, next, Date.parse(a.session_expires_at));
    return next;
  }

  async function signedIn(req: Request, res: Response, post: boolean): Promise<Ctx | undefined> {
    const lang = langOf(req, res);
    const stored = await sessions.get(req);
    const fresh =
      stored && stored.access && (stored.accessExpiresAt ?? 0) - Date.now() > RENEW_BEFORE_MS
        ? stored
        : stored && (await renewed(req, res, stored, stored.mode));
    if (!stored || !fresh || !fresh.access) {
      if (stored) await sessions.destroy(req, res);
      res.redirect(303, '/app/');
      return undefined;
    }
    if (post && !(sameOrigin(req) && sameToken(field(req, 'csrf'), fresh.csrf))) {
      send(
        res,
        403,
        page({ lang, t: texts[lang], title: texts[lang].title, body: '', message: { kind: 'error', text: texts[lang].csrf } }),
      );
      return undefined;
    }
    return { s: fresh, t: texts[lang], lang };
  }
  const redirectWith: PagesKit['redirectWith'] = async (req, res, to, flash) => {
    await sessions.flash(req, res, flash);
    res.redirect(303, to);
  };
  const nav: PagesKit['nav'] = (s, current, sub) => ({
    csrf: s.csrf,
    companyName: s.companyName,
    email: s.email,
    current,
    sub,
    mode: s.mode,
    role: s.role,
  });

  const kit: PagesKit = {
    deps,
    sessions,
    langOf,
    send,
    sameOrigin,
    field,
    api: gateway.call,
    raw: gateway.raw,
    asMember,
    signedIn,
    redirectWith,
    takeFlash: (req, res) => sessions.takeFlash(req, res),
    nav,
    ...pageHelpers(send, nav),
  };
  registerPages(router, kit);

  // live data or the test twin's: the same session, an access token of the other mode
  router.post('/mode', async (req, res) => {
    const ctx = await signedIn(req, res, true);
    if (!ctx) return;
    const mode = field(req, 'mode') === 'test' ? 'test' : 'live';
    await renewed(req, res, ctx.s, mode);
    res.redirect(303, dashboardPathOf(req.header('referer')) ?? '/app/invoices');
  });
  router.post('/sign-out', async (req, res) => {
    const ctx = await signedIn(req, res, true);
    if (!ctx) return;
    const secret = sessions.secretOf(req);
    if (secret)
      await gateway.call('POST', '/auth/sessions/revoke', { session_token: secret }, { requestId: requestIdOf(res) }, MessageBody);
    await sessions.destroy(req, res);
    res.redirect(303, '/app/');
  });
  return router;
}
