import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import { esc, page } from '../../kit/html';
import { texts as common, type Lang } from '../../kit/i18n';
import type { PagesKit } from '../../kit/pages-kit';
import { problemMessage } from '../../kit/problems';
import { cookieOptions, cookiesOf, CSRF_COOKIE, newToken, sameToken } from '../../kit/sessions';
import { texts } from './texts';

/** Where the sign-in page says that the password was changed. */
export const PASSWORD_CHANGED_QUERY = 'password=changed';

/**
 * Signed-out pages to reset a forgotten password: ask for a link by e-mail (the same answer for every address;
 * limited per client address), and set a new password with the link's token, which comes in the link's fragment
 * (never sent to a server; the page's script puts it into the form, kit/html.ts APP_JS).
 */
export function registerPasswordResetPages(router: Router, kit: PagesKit): void {
  const { deps, langOf, send, sameOrigin, field, api } = kit;
  const anonymous = (res: Response) => ({ requestId: String(res.locals.requestId ?? '') });
  const preCsrf = (req: Request, res: Response) => {
    const token = cookiesOf(req)[CSRF_COOKIE] ?? newToken();
    res.cookie(CSRF_COOKIE, token, cookieOptions(req, deps.production));
    return token;
  };
  const formOk = (req: Request) => sameOrigin(req) && sameToken(field(req, 'csrf'), cookiesOf(req)[CSRF_COOKIE]);
  const show = (res: Response, lang: Lang, status: number, title: string, body: string, message?: { kind: 'ok' | 'error'; text: string }) =>
    send(res, status, page({ lang, t: common[lang], title, message, body }));

  const forgotPage = (req: Request, res: Response, lang: Lang, status = 200, message?: { kind: 'ok' | 'error'; text: string }) => {
    const t = texts[lang];
    const email = message?.kind === 'error' ? field(req, 'email').trim().slice(0, 254) : '';
    show(
      res,
      lang,
      status,
      t.forgotTitle,
      `<div class="card narrow"><p>${esc(t.forgotLead)}</p><form class="stack" method="post" action="/app/forgot-password"><input type="hidden" name="csrf" value="${esc(preCsrf(req, res))}">
<label for="email">${esc(t.email)}</label><input id="email" name="email" type="email" autocomplete="username" maxlength="254" required value="${esc(email)}">
<p class="actions"><button type="submit">${esc(t.send)}</button> <a href="/app/">${esc(t.backToSignIn)}</a></p></form></div>`,
      message,
    );
  };
  const resetPage = (req: Request, res: Response, lang: Lang, status = 200, error?: string, linkInvalid = false) => {
    const t = texts[lang];
    // after a failed POST the form keeps the token (a too short password), except when the link itself failed
    const token = req.method === 'POST' && !linkInvalid ? field(req, 'token').slice(0, 100) : '';
    const form = linkInvalid
      ? `<p class="actions"><a class="button" href="/app/forgot-password">${esc(t.newLink)}</a></p>`
      : `<form class="stack" method="post" action="/app/reset-password"><input type="hidden" name="csrf" value="${esc(preCsrf(req, res))}"><input type="hidden" id="token" name="token" value="${esc(token)}">
<label for="password">${esc(t.newPassword)}</label><input id="password" name="password" type="password" autocomplete="new-password" minlength="12" maxlength="200" required>
<p class="actions"><button type="submit">${esc(t.save)}</button></p></form>`;
    show(
      res,
      lang,
      status,
      t.resetTitle,
      `<div class="card narrow"><p>${esc(t.resetLead)}</p>${form}</div>`,
      error ? { kind: 'error', text: error } : undefined,
    );
  };

  router.get('/forgot-password', (req, res) => forgotPage(req, res, langOf(req, res)));
  router.post('/forgot-password', async (req, res) => {
    const lang = langOf(req, res);
    const t = texts[lang];
    if (!formOk(req)) return forgotPage(req, res, lang, 403, { kind: 'error', text: common[lang].csrf });
    const email = field(req, 'email').trim();
    if (email.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
      return forgotPage(req, res, lang, 400, { kind: 'error', text: t.badEmail });
    // every request counts against the client address (they never "succeed": the answer is always the same)
    const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    if ((await deps.addressLimiter.take(`password-reset:${address}`)) > 0)
      return forgotPage(req, res, lang, 429, { kind: 'error', text: t.tooMany });
    const answer = await api('POST', '/auth/password-resets', { email }, anonymous(res), z.unknown());
    if (!answer.ok && answer.status !== 400)
      return forgotPage(req, res, lang, 502, { kind: 'error', text: problemMessage(lang, answer.status, answer.body) });
    if (!answer.ok) return forgotPage(req, res, lang, 400, { kind: 'error', text: t.badEmail });
    forgotPage(req, res, lang, 200, { kind: 'ok', text: t.sent });
  });
  router.get('/reset-password', (req, res) => resetPage(req, res, langOf(req, res)));
  router.post('/reset-password', async (req, res) => {
    const lang = langOf(req, res);
    const t = texts[lang];
    if (!formOk(req)) return resetPage(req, res, lang, 403, common[lang].csrf);
    const token = field(req, 'token');
    if (!/^[\w-]{43}$/.test(token)) return resetPage(req, res, lang, 404, t.invalidLink, true);
    const password = field(req, 'password');
    if (password.length < 12) return resetPage(req, res, lang, 400, t.tooShort);
    if (password.length > 200) return resetPage(req, res, lang, 400, problemMessage(lang, 400, {}));
    const answer = await api('POST', '/auth/password-resets/confirm', { token, password }, anonymous(res), z.unknown());
    if (answer.ok) return res.redirect(303, `/app/?${PASSWORD_CHANGED_QUERY}`);
    if (answer.status === 404) return resetPage(req, res, lang, 404, t.invalidLink, true);
    resetPage(req, res, lang, answer.status === 400 ? 400 : 502, problemMessage(lang, answer.status, answer.body));
  });
}
