import { createHash } from 'node:crypto';
import express, { Router, type Request, type Response } from 'express';
import { missingPermission, roleAllows } from '@inv/contracts';
import { type IdentitySigner, type Logger, type Redis } from '@inv/service-kit';
import type { FailedAuthLimiter } from '../auth/failed-auth-limiter';
import { APP_JS, esc, fill, page } from './html';
import { pickLang, texts, type Lang, type Texts } from './i18n';
import { accountCaller, type Json } from './account-client';
import { cookieOptions, cookiesOf, CSRF_COOKIE, newToken, sameToken, sessionStore, type Session } from './sessions';

export interface WebAppDeps {
  accountUrl: string;
  signer: IdentitySigner;
  redis: Redis;
  /** Failed sign-ins per account and client address (the failed-authentication limiter, its own keys) ... */
  limiter: FailedAuthLimiter;
  /** ... and per client address, with a larger budget. */
  addressLimiter: FailedAuthLimiter;
  logger: Logger;
  production: boolean;
}

const ROLES = ['admin', 'member', 'viewer', 'owner'];

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

  // --- signed out: sign in, accept an invitation ---
  const preCsrf = (req: Request, res: Response) => {
    const token = cookiesOf(req)[CSRF_COOKIE] ?? newToken();
    res.cookie(CSRF_COOKIE, token, cookieOptions(req, deps.production));
    return token;
  };
  const signInPage = (req: Request, res: Response, t: Texts, lang: Lang, status = 200, error?: string) =>
    send(
      res,
      status,
      page({
        lang,
        t,
        title: t.signIn,
        message: error ? { kind: 'error', text: error } : undefined,
        body: `<form method="post" action="/app/sign-in"><input type="hidden" name="csrf" value="${esc(preCsrf(req, res))}">
<label for="email">${esc(t.email)}</label><input id="email" name="email" type="email" autocomplete="username" required>
<label for="password">${esc(t.password)}</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<p><button type="submit">${esc(t.signIn)}</button></p></form>`,
      }),
    );
  const acceptPage = (req: Request, res: Response, t: Texts, lang: Lang, status = 200, error?: string) =>
    send(
      res,
      status,
      page({
        lang,
        t,
        title: t.acceptTitle,
        message: error ? { kind: 'error', text: error } : undefined,
        body: `<form method="post" action="/app/accept-invitation"><input type="hidden" name="csrf" value="${esc(preCsrf(req, res))}"><input type="hidden" id="token" name="token">
<label for="password">${esc(t.newPassword)}</label><input id="password" name="password" type="password" autocomplete="new-password" minlength="12" required>
<p><button type="submit">${esc(t.acceptSubmit)}</button></p></form>`,
      }),
    );
  const preFormOk = (req: Request) => sameOrigin(req) && sameToken(field(req, 'csrf'), cookiesOf(req)[CSRF_COOKIE]);

  router.get('/app.js', (_req, res) => void res.type('text/javascript').setHeader('cache-control', 'no-cache').send(APP_JS));
  router.get('/', async (req, res) => {
    const lang = langOf(req, res);
    if (await sessions.get(req)) return res.redirect(303, '/app/keys');
    signInPage(req, res, texts[lang], lang);
  });
  router.post('/sign-in', async (req, res) => {
    const lang = langOf(req, res);
    const t = texts[lang];
    if (!preFormOk(req)) return signInPage(req, res, t, lang, 403, t.csrf);
    // failures count per account and address (one person's mistakes lock out neither their colleagues behind the
    // same address nor the account elsewhere), and, more loosely, per address (one address trying many accounts)
    const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    const accountKey = createHash('sha256').update(field(req, 'email').trim().toLowerCase()).digest('hex').slice(0, 32);
    const client = `login:${address}:${accountKey}`;
    const wide = `login-address:${address}`;
    if ((await deps.limiter.take(client)) > 0) return signInPage(req, res, t, lang, 429, t.tooManyAttempts);
    if ((await deps.addressLimiter.take(wide)) > 0) {
      await deps.limiter.refund(client);
      return signInPage(req, res, t, lang, 429, t.tooManyAttempts);
    }
    const answer = await account(
      'POST',
      '/internal/members/sign-in',
      { email: field(req, 'email'), password: field(req, 'password') },
      internal(res),
    );
    if (answer.status !== 200)
      return signInPage(
        req,
        res,
        t,
        lang,
        answer.status === 400 || answer.status === 401 ? 401 : 502,
        answer.status === 400 || answer.status === 401 ? t.wrongCredentials : t.error,
      );
    await deps.limiter.refund(client);
    await deps.addressLimiter.refund(wide);
    const m = answer.body.memberships?.[0];
    if (!m) return signInPage(req, res, t, lang, 401, t.wrongCredentials);
    await sessions.create(req, res, {
      companyId: m.companyId,
      companyName: m.companyName,
      memberId: m.memberId,
      role: m.role,
      plan: m.plan,
      email: field(req, 'email').trim().toLowerCase(),
    });
    res.redirect(303, '/app/keys');
  });
  router.get('/accept-invitation', (req, res) => {
    const lang = langOf(req, res);
    acceptPage(req, res, texts[lang], lang);
  });
  router.post('/accept-invitation', async (req, res) => {
    const lang = langOf(req, res);
    const t = texts[lang];
    if (!preFormOk(req)) return acceptPage(req, res, t, lang, 403, t.csrf);
    if (field(req, 'password').length < 12) return acceptPage(req, res, t, lang, 400, t.passwordTooShort);
    const accepted = await account(
      'POST',
      '/internal/members/accept-invitation',
      { token: field(req, 'token'), password: field(req, 'password') },
      internal(res),
    );
    if (accepted.status !== 200)
      return acceptPage(
        req,
        res,
        t,
        lang,
        accepted.status === 404 || accepted.status === 400 ? 404 : 502,
        accepted.status === 404 || accepted.status === 400 ? t.invitationInvalid : t.error,
      );
    const signedIn = await account(
      'POST',
      '/internal/members/sign-in',
      { email: accepted.body.email, password: field(req, 'password') },
      internal(res),
    );
    const m = signedIn.body.memberships?.find((x) => x.companyId === accepted.body.companyId);
    if (!m) return signInPage(req, res, t, lang, 200);
    await sessions.create(req, res, {
      companyId: m.companyId,
      companyName: m.companyName,
      memberId: m.memberId,
      role: m.role,
      plan: m.plan,
      email: String(accepted.body.email),
    });
    res.redirect(303, '/app/keys');
  });

  // --- signed in ---
  async function signedIn(req: Request, res: Response, post: boolean): Promise<{ s: Session; t: Texts; lang: Lang } | undefined> {
    const lang = langOf(req, res);
    const stored = await sessions.get(req);
    // the member as it is now: removed -> signed out, a changed role or plan applies at once
    const now =
      stored &&
      (await account('POST', '/internal/members/current', { companyId: stored.companyId, memberId: stored.memberId }, internal(res)));
    if (!stored || !now || now.status !== 200) {
      if (stored) await sessions.destroy(req, res);
      res.redirect(303, '/app/');
      return undefined;
    }
    const s: Session = { ...stored, role: String(now.body.role), plan: String(now.body.plan), companyName: String(now.body.companyName) };
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
  const problemText = (t: Texts, body: Json) =>
    ({ PLAN_REQUIRED: t.planRequired, API_KEY_LIMIT_REACHED: t.keyLimit, FORBIDDEN: t.forbidden, MEMBER_EXISTS: t.memberExists })[
      String(body.code)
    ] ?? (typeof body.message === 'string' ? body.message : t.error);

  async function keysPage(
    req: Request,
    res: Response,
    ctx: { s: Session; t: Texts; lang: Lang },
    status: number,
    message?: { kind: 'ok' | 'error'; text: string },
    secret?: string,
  ) {
    const { s, t, lang } = ctx;
    const nav = { csrf: s.csrf, companyName: s.companyName, email: s.email, current: 'keys' as const };
    if (!roleAllows(s.role, 'keys:manage'))
      return send(res, 403, page({ lang, t, title: t.keys, nav, body: '', message: { kind: 'error', text: t.forbidden } }));
    const listed = await account('GET', '/company/api-keys', undefined, asMember(req, res, s));
    const keys = listed.body.api_keys ?? [];
    const date = (v: unknown) =>
      typeof v === 'string' ? esc(new Date(v).toLocaleString(lang === 'de' ? 'de-DE' : 'en-GB', { timeZone: 'UTC' })) : esc(t.never);
    const rows = keys
      .map(
        (
          k,
        ) => `<tr><td>${esc(k.name)}</td><td><code>${esc(k.prefix)}…</code></td><td>${esc(t.roles[k.role] ?? k.role)}</td><td>${date(k.created_at)}</td><td>${date(k.last_used_at)}</td>
<td>${k.active ? esc(t.active) : esc(k.revoked_reason === 'plan_downgrade' ? t.deactivated : t.revoked)}</td>
<td>${k.active ? `<a href="/app/keys/${esc(k.id)}/revoke" aria-label="${esc(t.revoke)}: ${esc(k.name)}">${esc(t.revoke)}</a>` : ''}</td></tr>`,
      )
      .join('\n');
    const roleOptions = ROLES.filter((r) => r !== 'owner' || s.role === 'owner')
      .map((r) => `<option value="${r}"${r === 'admin' ? ' selected' : ''}>${esc(t.roles[r])}</option>`)
      .join('');
    const secretBox = secret
      ? `<section aria-labelledby="secret-h"><h2 id="secret-h">${esc(t.secretOnce)}</h2><p><code class="secret" id="secret">${esc(secret)}</code>
<button type="button" data-copy="secret" data-done="${esc(t.copied)}">${esc(t.copy)}</button></p></section>`
      : '';
    const table = keys.length
      ? `<table><caption class="skip">${esc(t.keys)}</caption><thead><tr><th scope="col">${esc(t.keyName.split(' (')[0])}</th><th scope="col">${esc(t.prefix)}</th><th scope="col">${esc(t.role)}</th><th scope="col">${esc(t.created)}</th><th scope="col">${esc(t.lastUsed)}</th><th scope="col">${esc(t.status)}</th><th scope="col"><span class="skip">${esc(t.revoke)}</span></th></tr></thead><tbody>${rows}</tbody></table>`
      : `<p>${esc(t.noKeys)}</p>`;
    send(
      res,
      status,
      page({
        lang,
        t,
        title: t.keys,
        nav,
        message,
        body: `${secretBox}<form method="post" action="/app/keys"><input type="hidden" name="csrf" value="${esc(s.csrf)}">
<label for="name">${esc(t.keyName)}</label><input id="name" name="name" required maxlength="100">
<label for="role">${esc(t.role)}</label><select id="role" name="role">${roleOptions}</select>
<p><button type="submit">${esc(t.createKey)}</button></p></form>${table}`,
      }),
    );
  }

  router.get('/keys', async (req, res) => {
    const ctx = await signedIn(req, res, false);
    if (ctx) await keysPage(req, res, ctx, 200, req.query.done === 'revoked' ? { kind: 'ok', text: ctx.t.keyRevoked } : undefined);
  });
  router.post('/keys', async (req, res) => {
    const ctx = await signedIn(req, res, true);
    if (!ctx) return;
    // the API's permission check for the API call this form makes (account-service checks it again)
    if (missingPermission(ctx.s.role, 'POST', '/company/api-keys')) return keysPage(req, res, ctx, 403);
    const created = await account(
      'POST',
      '/company/api-keys',
      { name: field(req, 'name'), role: field(req, 'role') || undefined },
      asMember(req, res, ctx.s),
    );
    if (created.status === 201) return keysPage(req, res, ctx, 201, undefined, String(created.body.key));
    await keysPage(req, res, ctx, created.status >= 500 ? 502 : created.status, { kind: 'error', text: problemText(ctx.t, created.body) });
  });
  router.get('/keys/:id/revoke', async (req, res) => {
    const ctx = await signedIn(req, res, false);
    if (!ctx) return;
    const { s, t, lang } = ctx;
    const key = (await account('GET', '/company/api-keys', undefined, asMember(req, res, s))).body.api_keys?.find(
      (k) => k.id === req.params.id && k.active,
    );
    if (!key) return res.redirect(303, '/app/keys');
    send(
      res,
      200,
      page({
        lang,
        t,
        title: t.revoke,
        nav: { csrf: s.csrf, companyName: s.companyName, email: s.email, current: 'keys' },
        body: `<form method="post" action="/app/keys/${esc(key.id)}/revoke"><input type="hidden" name="csrf" value="${esc(s.csrf)}">
<p>${esc(fill(t.revokeConfirm, { name: String(key.name) }))}</p><p><button type="submit">${esc(t.revoke)}</button> <a href="/app/keys">${esc(t.cancel)}</a></p></form>`,
      }),
    );
  });
  router.post('/keys/:id/revoke', async (req, res) => {
    const ctx = await signedIn(req, res, true);
    if (!ctx) return;
    if (missingPermission(ctx.s.role, 'DELETE', '/company/api-keys/x')) return keysPage(req, res, ctx, 403);
    const revoked = await account('DELETE', `/company/api-keys/${encodeURIComponent(req.params.id)}`, undefined, asMember(req, res, ctx.s));
    if (revoked.status === 200) return res.redirect(303, '/app/keys?done=revoked');
    await keysPage(req, res, ctx, revoked.status >= 500 ? 502 : revoked.status, { kind: 'error', text: problemText(ctx.t, revoked.body) });
  });

  async function membersPage(
    req: Request,
    res: Response,
    ctx: { s: Session; t: Texts; lang: Lang },
    status: number,
    message?: { kind: 'ok' | 'error'; text: string },
  ) {
    const { s, t, lang } = ctx;
    const listed = await account('GET', '/members/', undefined, asMember(req, res, s));
    const rows = (listed.body.members ?? [])
      .map(
        (m) =>
          `<tr><td>${esc(m.email)}</td><td>${esc(t.roles[m.role] ?? m.role)}</td><td>${esc(m.status === 'invited' ? t.invited : t.active)}</td></tr>`,
      )
      .join('\n');
    const canInvite = roleAllows(s.role, 'members:manage');
    const roleOptions = ROLES.filter((r) => r !== 'owner' || s.role === 'owner')
      .map((r) => `<option value="${r}"${r === 'member' ? ' selected' : ''}>${esc(t.roles[r])}</option>`)
      .join('');
    const form = canInvite
      ? `<form method="post" action="/app/members"><input type="hidden" name="csrf" value="${esc(s.csrf)}">
<label for="email">${esc(t.email)}</label><input id="email" name="email" type="email" required>
<label for="role">${esc(t.role)}</label><select id="role" name="role">${roleOptions}</select>
<p><button type="submit">${esc(t.invite)}</button></p></form>`
      : '';
    send(
      res,
      status,
      page({
        lang,
        t,
        title: t.members,
        nav: { csrf: s.csrf, companyName: s.companyName, email: s.email, current: 'members' },
        message,
        body: `${form}<table><thead><tr><th scope="col">${esc(t.email)}</th><th scope="col">${esc(t.role)}</th><th scope="col">${esc(t.status)}</th></tr></thead><tbody>${rows}</tbody></table>`,
      }),
    );
  }
  router.get('/members', async (req, res) => {
    const ctx = await signedIn(req, res, false);
    if (ctx) await membersPage(req, res, ctx, 200);
  });
  router.post('/members', async (req, res) => {
    const ctx = await signedIn(req, res, true);
    if (!ctx) return;
    if (!roleAllows(ctx.s.role, 'members:manage')) return membersPage(req, res, ctx, 403, { kind: 'error', text: ctx.t.forbidden });
    const invited = await account(
      'POST',
      '/members/',
      { email: field(req, 'email'), role: field(req, 'role') || undefined },
      asMember(req, res, ctx.s),
    );
    if (invited.status === 201)
      return membersPage(req, res, ctx, 201, { kind: 'ok', text: fill(ctx.t.invitationSent, { email: String(invited.body.email) }) });
    await membersPage(req, res, ctx, invited.status >= 500 ? 502 : invited.status, {
      kind: 'error',
      text: problemText(ctx.t, invited.body),
    });
  });
  router.post('/sign-out', async (req, res) => {
    const ctx = await signedIn(req, res, true);
    if (!ctx) return;
    await sessions.destroy(req, res);
    res.redirect(303, '/app/');
  });
  return router;
}
