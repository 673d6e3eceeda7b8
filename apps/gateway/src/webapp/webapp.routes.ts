import { createHash } from 'node:crypto';
import express, { Router, type Request, type Response } from 'express';
import { missingPermission, roleAllows } from '@inv/contracts';
import { type IdentitySigner, type Logger, type Redis } from '@inv/service-kit';
import type { FailedAuthLimiter } from '../auth/failed-auth-limiter';
import { APP_CSS, APP_CSS_VERSION, APP_JS, esc, fill, page } from './html';
import { pickLang, texts, type Lang, type Texts } from './i18n';
import { accountCaller, serviceCaller } from './account-client';
import { problemMessage } from './problems';
import { registerWebhookPages } from './webhooks.pages';
import { cookieOptions, cookiesOf, CSRF_COOKIE, newToken, sameToken, sessionStore, type Flash, type Session } from './sessions';

export interface WebAppDeps {
  accountUrl: string;
  webhookUrl: string;
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
  /** The sign-in form; after a failed attempt the e-mail address stays filled in (the password never). */
  const signInPage = (req: Request, res: Response, t: Texts, lang: Lang, status = 200, error?: string) => {
    const email = req.method === 'POST' ? field(req, 'email').trim().slice(0, 320) : '';
    send(
      res,
      status,
      page({
        lang,
        t,
        title: t.signIn,
        message: error ? { kind: 'error', text: error } : undefined,
        body: `<div class="card narrow"><form class="stack" method="post" action="/app/sign-in"><input type="hidden" name="csrf" value="${esc(preCsrf(req, res))}">
<label for="email">${esc(t.email)}</label><input id="email" name="email" type="email" autocomplete="username" required value="${esc(email)}"${email ? '' : ' autofocus'}>
<label for="password">${esc(t.password)}</label><input id="password" name="password" type="password" autocomplete="current-password" required${email ? ' autofocus' : ''}>
<p class="actions"><button type="submit">${esc(t.signIn)}</button></p></form></div>`,
      }),
    );
  };
  /** Whom an invitation is for (company, address, role), or undefined for a token that accepts nothing. */
  const invitationOf = async (res: Response, token: string) => {
    if (!/^[\w-]{43}$/.test(token)) return undefined;
    const found = await account('POST', '/internal/members/invitation', { token }, internal(res));
    return found.status === 200 && typeof found.body.companyName === 'string' && typeof found.body.email === 'string'
      ? { companyName: found.body.companyName, email: found.body.email, role: String(found.body.role) }
      : undefined;
  };
  /**
   * The invitation page. The token comes in the link's fragment (never sent to a server): the script posts it to
   * /app/accept-invitation/details and fills in the company and the address. After a failed POST the page knows
   * the token and shows them itself.
   */
  const acceptPage = async (req: Request, res: Response, t: Texts, lang: Lang, status = 200, error?: string) => {
    const token = req.method === 'POST' ? field(req, 'token') : '';
    const details = token ? await invitationOf(res, token) : undefined;
    const info = details
      ? fill(esc(t.invitationFor), {
          company: `<strong>${esc(details.companyName)}</strong>`,
          email: `<strong>${esc(details.email)}</strong>`,
          role: `<strong>${esc(t.roles[details.role] ?? details.role)}</strong>`,
        })
      : '';
    send(
      res,
      status,
      page({
        lang,
        t,
        title: t.acceptTitle,
        message: error ? { kind: 'error', text: error } : undefined,
        body: `<div class="card narrow"><p id="invitation" class="lead" data-template="${esc(t.invitationFor)}"${info ? '' : ' hidden'}>${info}</p>
<form class="stack" method="post" action="/app/accept-invitation"><input type="hidden" name="csrf" value="${esc(preCsrf(req, res))}"><input type="hidden" id="token" name="token" value="${esc(details ? token : '')}">
<input type="text" id="username" name="username" autocomplete="username" value="${esc(details?.email ?? '')}" hidden>
<label for="password">${esc(t.newPassword)}</label><input id="password" name="password" type="password" autocomplete="new-password" minlength="12" required>
<p class="actions"><button type="submit">${esc(t.acceptSubmit)}</button></p></form></div>`,
      }),
    );
  };
  const preFormOk = (req: Request) => sameOrigin(req) && sameToken(field(req, 'csrf'), cookiesOf(req)[CSRF_COOKIE]);

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
        answer.status === 400 || answer.status === 401 ? t.wrongCredentials : problemMessage(lang, answer.status, answer.body),
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
  router.get('/accept-invitation', async (req, res) => {
    const lang = langOf(req, res);
    await acceptPage(req, res, texts[lang], lang);
  });
  // the invitation page's script asks whom its token invites (company, address, role), with the page's CSRF token
  router.post('/accept-invitation/details', async (req, res) => {
    const lang = langOf(req, res);
    const t = texts[lang];
    res.setHeader('cache-control', 'no-store');
    if (!preFormOk(req)) return void res.status(403).json({ message: t.csrf });
    const details = await invitationOf(res, field(req, 'token'));
    if (!details) return void res.status(404).json({ message: t.invitationInvalid });
    res.json({ company: details.companyName, email: details.email, role: t.roles[details.role] ?? details.role });
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
        accepted.status === 404 || accepted.status === 400 ? t.invitationInvalid : problemMessage(lang, accepted.status, accepted.body),
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
  const td = (label: string, html: string) => `<td data-label="${esc(label)}">${html}</td>`;

  async function keysPage(
    req: Request,
    res: Response,
    ctx: { s: Session; t: Texts; lang: Lang },
    status: number,
    message?: Flash,
    form?: { name: string; role: string; mode: string },
  ) {
    const { s, t, lang } = ctx;
    const nav = navOf(s, 'keys');
    if (!roleAllows(s.role, 'keys:manage'))
      return send(res, 403, page({ lang, t, title: t.keys, nav, body: '', message: { kind: 'error', text: t.forbidden } }));
    const listed = await account('GET', '/company/api-keys', undefined, asMember(req, res, s));
    const keys = listed.body.api_keys ?? [];
    const date = (v: unknown) =>
      typeof v === 'string'
        ? esc(new Date(v).toLocaleString(lang === 'de' ? 'de-DE' : 'en-GB', { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' }))
        : `<span class="muted">${esc(t.never)}</span>`;
    const name = t.keyName.split(' (')[0]!;
    const rows = keys
      .map(
        (k) =>
          `<tr>${td(name, esc(k.name))}${td(t.prefix, `<code>${esc(k.prefix)}…</code>`)}${td(t.role, esc(t.roles[k.role] ?? k.role))}${td(t.mode, `<span class="badge${k.mode === 'test' ? ' off' : ''}">${esc(k.mode === 'test' ? 'Test' : 'Live')}</span>`)}${td(t.created, date(k.created_at))}${td(t.lastUsed, date(k.last_used_at))}` +
          td(
            t.status,
            k.active
              ? `<span class="badge">${esc(t.active)}</span>`
              : `<span class="badge off">${esc(k.revoked_reason === 'plan_downgrade' ? t.deactivated : t.revoked)}</span>`,
          ) +
          `<td>${k.active ? `<a href="/app/keys/${esc(k.id)}/revoke" aria-label="${esc(t.revoke)}: ${esc(k.name)}">${esc(t.revoke)}</a>` : ''}</td></tr>`,
      )
      .join('\n');
    const selected = form?.role || 'admin';
    const roleOptions = ROLES.filter((r) => r !== 'owner' || s.role === 'owner')
      .map((r) => `<option value="${r}"${r === selected ? ' selected' : ''}>${esc(t.roles[r])}</option>`)
      .join('');
    const selectedMode = form?.mode === 'test' ? 'test' : 'live';
    const modeOptions = (['live', 'test'] as const)
      .map((m) => `<option value="${m}"${m === selectedMode ? ' selected' : ''}>${esc(t.modes[m]!)}</option>`)
      .join('');
    const secretBox = message?.secret
      ? `<section class="card secret-box" aria-labelledby="secret-h"><h2 id="secret-h">${esc(t.secretOnce)}</h2><code class="secret" id="secret">${esc(message.secret)}</code>
<button type="button" class="secondary" data-copy="secret" data-done="${esc(t.copied)}">${esc(t.copy)}</button></section>`
      : '';
    const table = keys.length
      ? `<div class="table-wrap"><table class="cards"><caption class="sr-only">${esc(t.keys)}</caption><thead><tr><th scope="col">${esc(name)}</th><th scope="col">${esc(t.prefix)}</th><th scope="col">${esc(t.role)}</th><th scope="col">${esc(t.mode)}</th><th scope="col">${esc(t.created)}</th><th scope="col">${esc(t.lastUsed)}</th><th scope="col">${esc(t.status)}</th><th scope="col"><span class="sr-only">${esc(t.revoke)}</span></th></tr></thead><tbody>${rows}</tbody></table></div>`
      : `<p class="muted">${esc(t.noKeys)}</p>`;
    send(
      res,
      status,
      page({
        lang,
        t,
        title: t.keys,
        nav,
        message: message && { kind: message.kind, text: message.text },
        body: `${secretBox}<section class="card" aria-labelledby="new-key-h"><h2 id="new-key-h">${esc(t.newKey)}</h2><form class="inline" method="post" action="/app/keys"><input type="hidden" name="csrf" value="${esc(s.csrf)}">
<label for="name">${esc(t.keyName)}</label><input class="field" id="name" name="name" required maxlength="100" value="${esc(form?.name ?? '')}">
<label for="role">${esc(t.role)}</label><select class="field" id="role" name="role">${roleOptions}</select>
<label for="mode">${esc(t.mode)}</label><select class="field" id="mode" name="mode">${modeOptions}</select>
<button type="submit">${esc(t.createKey)}</button></form></section>${table}`,
      }),
    );
  }

  router.get('/keys', async (req, res) => {
    const ctx = await signedIn(req, res, false);
    if (ctx) await keysPage(req, res, ctx, 200, await sessions.takeFlash(req, res));
  });
  router.post('/keys', async (req, res) => {
    const ctx = await signedIn(req, res, true);
    if (!ctx) return;
    // the API's permission check for the API call this form makes (account-service checks it again)
    if (missingPermission(ctx.s.role, 'POST', '/company/api-keys'))
      return keysPage(req, res, ctx, 403, { kind: 'error', text: ctx.t.forbidden });
    const input = { name: field(req, 'name'), role: field(req, 'role'), mode: field(req, 'mode') };
    const created = await account(
      'POST',
      '/company/api-keys',
      { name: input.name, role: input.role || undefined, mode: input.mode || undefined },
      asMember(req, res, ctx.s),
    );
    if (created.status === 201)
      return redirectWith(req, res, '/app/keys', {
        kind: 'ok',
        text: fill(ctx.t.keyCreated, { name: String(created.body.name ?? input.name) }),
        secret: String(created.body.key),
      });
    // refused: the form again, filled in as sent (nothing was done, so nothing repeats on a reload)
    await keysPage(
      req,
      res,
      ctx,
      created.status >= 500 ? 502 : created.status,
      { kind: 'error', text: problemMessage(ctx.lang, created.status, created.body) },
      input,
    );
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
        nav: navOf(s, 'keys'),
        body: `<div class="card narrow"><form method="post" action="/app/keys/${esc(key.id)}/revoke"><input type="hidden" name="csrf" value="${esc(s.csrf)}">
<p class="lead">${esc(fill(t.revokeConfirm, { name: String(key.name) }))}</p><p class="actions"><button type="submit" class="danger">${esc(t.revoke)}</button> <a class="button secondary" href="/app/keys">${esc(t.cancel)}</a></p></form></div>`,
      }),
    );
  });
  router.post('/keys/:id/revoke', async (req, res) => {
    const ctx = await signedIn(req, res, true);
    if (!ctx) return;
    if (missingPermission(ctx.s.role, 'DELETE', '/company/api-keys/x'))
      return keysPage(req, res, ctx, 403, { kind: 'error', text: ctx.t.forbidden });
    const revoked = await account('DELETE', `/company/api-keys/${encodeURIComponent(req.params.id)}`, undefined, asMember(req, res, ctx.s));
    if (revoked.status === 200) return redirectWith(req, res, '/app/keys', { kind: 'ok', text: ctx.t.keyRevoked });
    await keysPage(req, res, ctx, revoked.status >= 500 ? 502 : revoked.status, {
      kind: 'error',
      text: problemMessage(ctx.lang, revoked.status, revoked.body),
    });
  });

  async function membersPage(
    req: Request,
    res: Response,
    ctx: { s: Session; t: Texts; lang: Lang },
    status: number,
    message?: Flash,
    form?: { email: string; role: string },
  ) {
    const { s, t, lang } = ctx;
    const listed = await account('GET', '/members/', undefined, asMember(req, res, s));
    const rows = (listed.body.members ?? [])
      .map(
        (m) =>
          `<tr>${td(t.email, esc(m.email))}${td(t.role, esc(t.roles[m.role] ?? m.role))}${td(
            t.status,
            m.status === 'invited' ? `<span class="badge off">${esc(t.invited)}</span>` : `<span class="badge">${esc(t.active)}</span>`,
          )}</tr>`,
      )
      .join('\n');
    const canInvite = roleAllows(s.role, 'members:manage');
    const selected = form?.role || 'member';
    const roleOptions = ROLES.filter((r) => r !== 'owner' || s.role === 'owner')
      .map((r) => `<option value="${r}"${r === selected ? ' selected' : ''}>${esc(t.roles[r])}</option>`)
      .join('');
    const invite = canInvite
      ? `<section class="card" aria-labelledby="invite-h"><h2 id="invite-h">${esc(t.invite)}</h2><form class="inline" method="post" action="/app/members"><input type="hidden" name="csrf" value="${esc(s.csrf)}">
<label for="email">${esc(t.email)}</label><input class="field" id="email" name="email" type="email" required value="${esc(form?.email ?? '')}">
<label for="role">${esc(t.role)}</label><select class="field" id="role" name="role">${roleOptions}</select>
<button type="submit">${esc(t.invite)}</button></form></section>`
      : '';
    send(
      res,
      status,
      page({
        lang,
        t,
        title: t.members,
        nav: navOf(s, 'members'),
        message: message && { kind: message.kind, text: message.text },
        body: `${invite}<div class="table-wrap"><table class="cards"><caption class="sr-only">${esc(t.members)}</caption><thead><tr><th scope="col">${esc(t.email)}</th><th scope="col">${esc(t.role)}</th><th scope="col">${esc(t.status)}</th></tr></thead><tbody>${rows}</tbody></table></div>`,
      }),
    );
  }
  router.get('/members', async (req, res) => {
    const ctx = await signedIn(req, res, false);
    if (ctx) await membersPage(req, res, ctx, 200, await sessions.takeFlash(req, res));
  });
  router.post('/members', async (req, res) => {
    const ctx = await signedIn(req, res, true);
    if (!ctx) return;
    if (!roleAllows(ctx.s.role, 'members:manage')) return membersPage(req, res, ctx, 403, { kind: 'error', text: ctx.t.forbidden });
    const input = { email: field(req, 'email').trim().slice(0, 320), role: field(req, 'role') };
    const invited = await account('POST', '/members/', { email: input.email, role: input.role || undefined }, asMember(req, res, ctx.s));
    if (invited.status === 201)
      return redirectWith(req, res, '/app/members', {
        kind: 'ok',
        text: fill(ctx.t.invitationSent, { email: String(invited.body.email) }),
      });
    await membersPage(
      req,
      res,
      ctx,
      invited.status >= 500 ? 502 : invited.status,
      { kind: 'error', text: problemMessage(ctx.lang, invited.status, invited.body) },
      input,
    );
  });
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
