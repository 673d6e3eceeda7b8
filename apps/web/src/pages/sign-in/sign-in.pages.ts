import { createHash } from 'node:crypto';
import type { Request, Response, Router } from 'express';
import { InvitationInfo, MemberSession } from '@inv/contracts';
import { esc, fill, page } from '../../kit/html';
import { texts, type Lang, type Texts } from '../../kit/i18n';
import type { PagesKit } from '../../kit/pages-kit';
import { problemMessage } from '../../kit/problems';
import { cookieOptions, cookiesOf, CSRF_COOKIE, newToken, sameToken } from '../../kit/sessions';
import { PASSWORD_CHANGED_QUERY } from '../password-reset/password-reset.pages';
import { texts as resetTexts } from '../password-reset/texts';

/**
 * The signed-out pages: sign in (failures limited per account and address), and accept an invitation (set a
 * password, then signed in). Forms carry a double-submit CSRF cookie and must come from this origin.
 */
export function registerSignInPages(router: Router, kit: PagesKit): void {
  const { deps, sessions, langOf, send, sameOrigin, field, api } = kit;
  const anonymous = (res: Response) => ({ requestId: String(res.locals.requestId ?? '') });
  /** A member session the API issued (sign-in, accepted invitation) becomes this browser's session. */
  const startSession = async (req: Request, res: Response, m: MemberSession) => {
    await sessions.create(
      req,
      res,
      m.session_token!,
      {
        companyId: m.company.id,
        companyName: m.company.name,
        memberId: m.member.id,
        email: m.member.email,
        role: m.member.role,
        plan: m.company.plan,
        mode: m.mode,
        access: m.access_token,
        accessExpiresAt: Date.parse(m.access_expires_at),
      },
      Date.parse(m.session_expires_at),
    );
    res.redirect(303, '/app/invoices');
  };
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
        message: error
          ? { kind: 'error', text: error }
          : req.originalUrl.endsWith(`?${PASSWORD_CHANGED_QUERY}`)
            ? { kind: 'ok', text: resetTexts[lang].done }
            : undefined,
        body: `<div class="card narrow"><form class="stack" method="post" action="/app/sign-in"><input type="hidden" name="csrf" value="${esc(preCsrf(req, res))}">
<label for="email">${esc(t.email)}</label><input id="email" name="email" type="email" autocomplete="username" required value="${esc(email)}"${email ? '' : ' autofocus'}>
<label for="password">${esc(t.password)}</label><input id="password" name="password" type="password" autocomplete="current-password" required${email ? ' autofocus' : ''}>
<p class="actions"><button type="submit">${esc(t.signIn)}</button> <a href="/app/forgot-password">${esc(resetTexts[lang].forgotLink)}</a></p></form></div>`,
      }),
    );
  };
  /** Whom an invitation is for (company, address, role), or undefined for a token that accepts nothing. */
  const invitationOf = async (res: Response, token: string) => {
    if (!/^[\w-]{43}$/.test(token)) return undefined;
    const found = await api('POST', '/auth/invitations/lookup', { token }, anonymous(res), InvitationInfo);
    return found.ok ? { companyName: found.body.company_name, email: found.body.email, role: found.body.role } : undefined;
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

  router.get('/', async (req, res) => {
    const lang = langOf(req, res);
    if (await sessions.get(req)) return res.redirect(303, '/app/invoices');
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
    const answer = await api(
      'POST',
      '/auth/sessions',
      { email: field(req, 'email').trim().slice(0, 320), password: field(req, 'password').slice(0, 1024) },
      anonymous(res),
      MemberSession,
    );
    if (!answer.ok)
      return signInPage(
        req,
        res,
        t,
        lang,
        answer.status === 400 || answer.status === 401 ? 401 : answer.status === 429 ? 429 : 502,
        answer.status === 400 || answer.status === 401
          ? t.wrongCredentials
          : answer.status === 429
            ? t.tooManyAttempts
            : problemMessage(lang, answer.status, answer.body),
      );
    await deps.limiter.refund(client);
    await deps.addressLimiter.refund(wide);
    await startSession(req, res, answer.body);
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
    const accepted = await api(
      'POST',
      '/auth/invitations/accept',
      { token: field(req, 'token').slice(0, 100), password: field(req, 'password').slice(0, 1024) },
      anonymous(res),
      MemberSession,
    );
    if (!accepted.ok)
      return acceptPage(
        req,
        res,
        t,
        lang,
        accepted.status === 404 || accepted.status === 400 ? 404 : 502,
        accepted.status === 404 || accepted.status === 400 ? t.invitationInvalid : problemMessage(lang, accepted.status, accepted.body),
      );
    await startSession(req, res, accepted.body);
  });
}
