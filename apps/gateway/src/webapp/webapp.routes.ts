import express, { Router, type Request, type Response } from 'express';
import { CurrentMember, roleAllows } from '@inv/contracts';
import { APP_CSS, APP_CSS_VERSION, APP_JS, page } from './html';
import { pickLang, texts, type Lang, type Texts } from './i18n';
import { accountCaller, serviceCaller } from './account-client';
import { registerKeyPages } from './keys.pages';
import { registerMemberPages } from './members.pages';
import type { PagesKit } from './pages-kit';
import { registerSignInPages } from './sign-in.pages';
import { registerWebhookPages } from './webhooks.pages';
import type { WebAppDeps } from './deps';
import { cookieOptions, cookiesOf, sameToken, sessionStore, type Flash, type Session } from './sessions';

export type { WebAppDeps } from './deps';

/**
 * The web app's account settings, served by the gateway under /app/ as server-rendered pages: members sign
 * in (password, argon2id in account-service), manage API keys and invite members. It talks to account-service
 * as the API does (signed identity: company, member, role), never to a database. Forms carry a CSRF token
 * (per session; before sign-in a double-submit cookie) and must come from this origin.
 */
export function webAppRoutes(deps: WebAppDeps): Router {
  const router = Router();
  const sessions = sessionStore(deps.redis, deps.production);
  router.use(express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 20 }));
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

  const account = accountCaller(deps);
  const asMember = (req: Request, res: Response, s: Session) => ({
    scope: 'company' as const,
    companyId: s.companyId,
    memberId: s.memberId,
    role: s.role,
    plan: s.plan,
    requestId: String(res.locals.requestId ?? ''),
    clientIp: req.ip ?? req.socket.remoteAddress ?? 'unknown',
  });
  const internal = (res: Response) => ({ scope: 'internal' as const, requestId: String(res.locals.requestId ?? '') });
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

  // --- signed in ---
  async function signedIn(req: Request, res: Response, post: boolean): Promise<{ s: Session; t: Texts; lang: Lang } | undefined> {
    const lang = langOf(req, res);
    const stored = await sessions.get(req);
    // the member as it is now: removed -> signed out, a changed role or plan applies at once
    const now =
      stored &&
      (await account(
        'POST',
        '/internal/members/current',
        { companyId: stored.companyId, memberId: stored.memberId },
        internal(res),
        CurrentMember,
      ));
    if (!stored || !now || !now.ok) {
      if (stored) await sessions.destroy(req, res);
      res.redirect(303, '/app/');
      return undefined;
    }
    const s: Session = { ...stored, role: now.body.role, plan: now.body.plan, companyName: now.body.companyName };
    if (post && !(sameOrigin(req) && sameToken(field(req, 'csrf'), s.csrf))) {
      send(
        res,
        403,
        page({ lang, t: texts[lang], title: texts[lang].title, body: '', message: { kind: 'error', text: texts[lang].csrf } }),
      );
      return undefined;
    }
    return { s, t: texts[lang], lang };
  }
  /** A form that worked: its message (and a new key's secret) for the next page, then 303 to that page's GET. */
  const redirectWith = async (req: Request, res: Response, to: string, flash: Flash) => {
    await sessions.flash(req, res, flash);
    res.redirect(303, to);
  };
  /** The signed-in navigation; the webhooks page only for roles that may manage them. */
  const navOf = (s: Session, current: 'keys' | 'members' | 'webhooks') => ({
    csrf: s.csrf,
    companyName: s.companyName,
    email: s.email,
    current,
    webhooks: roleAllows(s.role, 'webhooks:manage'),
  });

  const kit: PagesKit = {
    deps,
    sessions,
    langOf,
    send,
    sameOrigin,
    field,
    account,
    asMember,
    internal,
    signedIn,
    redirectWith,
    nav: navOf,
  };
  registerSignInPages(router, kit);
  registerKeyPages(router, kit);
  registerMemberPages(router, kit);
  registerWebhookPages(router, {
    signedIn,
    send,
    redirectWith,
    takeFlash: (req, res) => sessions.takeFlash(req, res),
    field,
    asMember,
    nav: navOf,
    webhooks: serviceCaller({
      ...deps,
      url: deps.webhookUrl,
      what: 'webhook-service',
      unavailable: 'the webhook settings are temporarily unavailable; retry shortly',
    }),
  });
  router.post('/sign-out', async (req, res) => {
    const ctx = await signedIn(req, res, true);
    if (!ctx) return;
    await sessions.destroy(req, res);
    res.redirect(303, '/app/');
  });
  return router;
}
