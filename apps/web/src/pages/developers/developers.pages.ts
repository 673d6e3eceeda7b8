import type { Request, Response, Router } from 'express';
import { TestMail, TestMailList } from '@inv/contracts';
import { esc, fill } from '../../kit/html';
import { td, type Ctx, type PagesKit } from '../../kit/pages-kit';
import { texts, type DeveloperTexts } from './texts';

/** Test e-mail ids: the e-mail id a send answered (a UUID). */
const MAIL_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PAGE_SIZE = 25;
const MAX_PAGE = 10_000;

/**
 * The developers' section: a landing page linking API keys, webhooks, the request log and the test e-mails, and
 * the test e-mails themselves (GET /test-mails/, GET /test-mails/{email_id}): what test mode recorded instead of
 * sending. The API answers them to the test data only (a live session gets 403), so a live session is told where
 * they are and offered the switch to the test data, without asking the API.
 */
export function registerDeveloperPages(router: Router, kit: PagesKit): void {
  const tx = (ctx: Ctx): DeveloperTexts => texts[ctx.lang];
  const when = (ctx: Ctx, v: string) =>
    esc(new Date(v).toLocaleString(ctx.lang === 'de' ? 'de-DE' : 'en-GB', { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' }));

  router.get('/developers', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (!ctx) return;
    const t = tx(ctx);
    const nav = ctx.t.subNav;
    const link = (href: string, label: string, text: string) =>
      `<li><a href="${href}">${esc(label)}</a><br><span class="muted">${esc(text)}</span></li>`;
    kit.render(res, ctx, {
      title: t.developers,
      current: 'developers',
      body: `<p class="lead">${esc(t.developersLead)}</p><section class="card"><ul class="links">
${kit.may(ctx, 'GET', '/company/api-keys') ? link('/app/keys', nav.keys ?? 'API keys', t.keysText) : ''}
${kit.may(ctx, 'GET', '/webhook-endpoints/') ? link('/app/webhooks', nav.webhooks ?? 'Webhooks', t.webhooksText) : ''}
${link('/app/request-log', nav.requestLog ?? 'Request log', t.requestLogText)}
${link('/app/test-mails', nav.testMails ?? t.testMails, t.testMailsText)}
${link('/api/v1/docs', t.docsText, '/api/v1/docs')}
</ul></section>`,
    });
  });

  /** What a live session sees instead of the list: where test e-mails are, and the switch to the test data. */
  const liveExplanation = (ctx: Ctx) =>
    `<section class="card"><p class="lead">${esc(tx(ctx).liveExplain)}</p><form method="post" action="/app/mode"><input type="hidden" name="csrf" value="${esc(ctx.s.csrf)}"><input type="hidden" name="mode" value="test"><button type="submit">${esc(tx(ctx).switchToTest)}</button></form></section>`;
  const frame = { current: 'developers' as const, sub: 'testMails' };
  const refused = (res: Response, ctx: Ctx, title: string, answer: { ok: false; status: number; body: Record<string, unknown> }) => {
    // the API's word for a live session: explain it rather than show a bare 403
    if (answer.status === 403 && ctx.s.mode !== 'test') return kit.render(res, ctx, { ...frame, title, body: liveExplanation(ctx) });
    kit.render(res, ctx, {
      ...frame,
      status: answer.status >= 500 ? 502 : answer.status,
      title,
      body: '',
      message: { kind: 'error', text: kit.problem(ctx, answer) },
    });
  };

  router.get('/test-mails', async (req: Request, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (!ctx) return;
    const t = tx(ctx);
    if (ctx.s.mode !== 'test') return kit.render(res, ctx, { ...frame, title: t.testMails, body: liveExplanation(ctx) });
    const raw = typeof req.query.page === 'string' ? req.query.page : '';
    const page = /^[1-9]\d{0,4}$/.test(raw) ? Math.min(Number(raw), MAX_PAGE) : 1;
    const listed = await kit.api(
      'GET',
      `/test-mails/?page=${page}&limit=${PAGE_SIZE}`,
      undefined,
      kit.asMember(req, res, ctx.s),
      TestMailList,
    );
    if (!listed.ok) return refused(res, ctx, t.testMails, listed);
    const { test_mails: mails, total } = listed.body;
    const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
    const rows = mails.map(
      (m) =>
        `<tr>${td(t.captured, when(ctx, m.captured_at))}${td(t.to, esc(m.to.join(', ')))}${td(
          t.subject,
          MAIL_ID.test(m.id) ? `<a href="/app/test-mails/${esc(m.id)}">${esc(m.subject)}</a>` : esc(m.subject),
        )}${td(t.attachments, esc(m.attachments.map((a) => a.filename).join(', ')))}</tr>`,
    );
    const pager =
      pages > 1
        ? `<nav aria-label="${esc(t.pages)}" class="actions">${page > 1 ? `<a class="button secondary" href="/app/test-mails?page=${page - 1}" rel="prev">${esc(t.previous)}</a>` : ''}<span>${esc(fill(t.pageOf, { page: String(page), pages: String(pages) }))}</span>${page < pages ? `<a class="button secondary" href="/app/test-mails?page=${page + 1}" rel="next">${esc(t.next)}</a>` : ''}</nav>`
        : '';
    const list = mails.length
      ? `<div class="table-wrap" tabindex="0"><table class="cards"><caption class="sr-only">${esc(t.testMails)}</caption><thead><tr><th scope="col">${esc(t.captured)}</th><th scope="col">${esc(t.to)}</th><th scope="col">${esc(t.subject)}</th><th scope="col">${esc(t.attachments)}</th></tr></thead><tbody>${rows.join('\n')}</tbody></table></div>${pager}`
      : `<p class="muted">${esc(t.noTestMails)}</p>`;
    kit.render(res, ctx, { ...frame, title: t.testMails, body: `<p class="lead">${esc(t.testLead)}</p>${list}` });
  });

  router.get('/test-mails/:id', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (!ctx) return;
    const t = tx(ctx);
    const back = `<p><a href="/app/test-mails">${esc(t.allTestMails)}</a></p>`;
    if (!MAIL_ID.test(req.params.id))
      return kit.render(res, ctx, { ...frame, status: 404, title: t.testMail, body: back, message: { kind: 'error', text: t.notFound } });
    if (ctx.s.mode !== 'test') return kit.render(res, ctx, { ...frame, title: t.testMail, body: liveExplanation(ctx) });
    const got = await kit.api(
      'GET',
      `/test-mails/${encodeURIComponent(req.params.id)}`,
      undefined,
      kit.asMember(req, res, ctx.s),
      TestMail,
    );
    if (!got.ok && got.status === 404)
      return kit.render(res, ctx, { ...frame, status: 404, title: t.testMail, body: back, message: { kind: 'error', text: t.notFound } });
    if (!got.ok) return refused(res, ctx, t.testMail, got);
    const m = got.body;
    const list = (v: string[]) => (v.length ? esc(v.join(', ')) : '');
    const row = (k: string, v: string) => (v ? `<tr><th scope="row">${esc(k)}</th><td>${v}</td></tr>` : '');
    const attachments = m.attachments.length
      ? `<ul>${m.attachments.map((a) => `<li>${esc(a.filename)} <span class="muted">(${esc(a.content_type)})</span></li>`).join('')}</ul>`
      : `<span class="muted">${esc(t.none)}</span>`;
    kit.render(res, ctx, {
      ...frame,
      title: t.testMail,
      body: `<section class="card"><div class="table-wrap" tabindex="0"><table class="facts"><caption class="sr-only">${esc(t.testMail)}</caption><tbody>
${row(t.subject, esc(m.subject))}${row(t.from, esc(m.from))}${row(t.replyTo, esc(m.reply_to ?? ''))}${row(t.to, list(m.to))}${row(t.cc, list(m.cc))}${row(t.bcc, list(m.bcc))}${row(t.captured, when(ctx, m.captured_at))}${row(t.about, `<code>${esc(m.subject_ref)}</code>`)}${row(t.attachments, attachments)}
</tbody></table></div></section><section class="card" aria-labelledby="text-h"><h2 id="text-h">${esc(t.text)}</h2><pre class="mail">${esc(m.text)}</pre></section>${back}`,
    });
  });
}
