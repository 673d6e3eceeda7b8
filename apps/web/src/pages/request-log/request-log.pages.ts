import type { Router } from 'express';
import { REQUEST_LOG_METHODS, RequestLogPage } from '@inv/contracts';
import { esc } from '../../kit/html';
import { td, type PagesKit } from '../../kit/pages-kit';
import { texts } from './texts';

const LIMIT = 25;
const STATUS = /^[1-5](\d\d|xx)$/;
const CURSOR = /^\d{1,15}-\d{1,10}$/;
const METHODS: readonly string[] = REQUEST_LOG_METHODS;

/**
 * The request log (developers): GET /request-log/ as a table, newest first, filtered by status (exact or class)
 * and method with a GET form, paged with the API's cursor ("Older requests").
 */
export function registerRequestLogPages(router: Router, kit: PagesKit): void {
  router.get('/request-log', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (!ctx) return;
    const t = texts[ctx.lang];
    const q = (name: string) => (typeof req.query[name] === 'string' ? (req.query[name] as string).trim().slice(0, 40) : '');
    const rawStatus = q('status').toLowerCase();
    const status = STATUS.test(rawStatus) ? rawStatus : '';
    const method = METHODS.includes(q('method').toUpperCase()) ? q('method').toUpperCase() : '';
    const cursor = CURSOR.test(q('cursor')) ? q('cursor') : '';
    const filters = new URLSearchParams();
    if (status) filters.set('status', status);
    if (method) filters.set('method', method);
    const api = new URLSearchParams(filters);
    api.set('limit', String(LIMIT));
    if (cursor) api.set('cursor', cursor);

    const opt = (v: string, label: string) => `<option value="${esc(v)}"${v === method ? ' selected' : ''}>${esc(label)}</option>`;
    const form = `<form class="card filters" method="get" action="/app/request-log" role="search">
<div class="filter-grid"><div><label for="f-status">${esc(t.statusFilter)}</label><input id="f-status" name="status" type="text" inputmode="text" maxlength="3" list="f-status-classes" value="${esc(rawStatus ? rawStatus : '')}"><datalist id="f-status-classes"><option value="2xx"><option value="3xx"><option value="4xx"><option value="5xx"></datalist></div>
<div><label for="f-method">${esc(t.methodFilter)}</label><select id="f-method" name="method">${opt('', t.anyMethod)}${METHODS.map((m) => opt(m, m)).join('')}</select></div></div>
<p class="actions"><button type="submit">${esc(t.filter)}</button><a href="/app/request-log">${esc(t.reset)}</a></p></form>`;
    const frame = { title: t.title, current: 'developers' as const, sub: 'requestLog' };
    const badInput = rawStatus && !status ? { kind: 'error' as const, text: t.badStatus } : undefined;

    const listed = await kit.api('GET', `/request-log/?${api.toString()}`, undefined, kit.asMember(req, res, ctx.s), RequestLogPage);
    if (!listed.ok)
      return kit.render(res, ctx, {
        ...frame,
        status: listed.status >= 500 ? 502 : listed.status,
        body: form,
        message: { kind: 'error', text: kit.problem(ctx, listed) },
      });
    const locale = ctx.lang === 'de' ? 'de-DE' : 'en-GB';
    const when = (v: string) =>
      esc(new Date(v).toLocaleString(locale, { timeZone: 'UTC', dateStyle: 'short', timeStyle: 'medium' }) + ' UTC');
    const ms = new Intl.NumberFormat(locale);
    const badge = (code: number) => `<span class="badge${code >= 400 ? ' bad' : code >= 300 ? ' off' : ''}">${esc(String(code))}</span>`;
    const code = (v: string | null) => (v ? `<code class="long">${esc(v)}</code>` : `<span class="muted">${esc(t.none)}</span>`);
    const rows = listed.body.entries.map(
      (e) =>
        `<tr>${td(t.time, when(e.created_at))}${td(t.method, esc(e.method))}${td(t.path, `<code class="long">${esc(e.path)}</code>`)}` +
        `${td(t.status, badge(e.status))}${td(t.duration, `${esc(ms.format(e.duration_ms))} ms`)}${td(t.requestId, code(e.request_id))}` +
        `${td(t.idempotencyKey, code(e.idempotency_key))}${td(t.keyId, code(e.key_id))}</tr>`,
    );
    const next = listed.body.next_cursor && CURSOR.test(listed.body.next_cursor) ? listed.body.next_cursor : '';
    const at = (c?: string) => {
      const p = new URLSearchParams(filters);
      if (c) p.set('cursor', c);
      const s = p.toString();
      return `/app/request-log${s ? `?${s}` : ''}`;
    };
    const pager =
      cursor || next
        ? `<nav aria-label="${esc(t.pages)}" class="actions">${cursor ? `<a class="button secondary" href="${esc(at())}">${esc(t.newest)}</a>` : ''}${next ? `<a class="button secondary" href="${esc(at(next))}" rel="next">${esc(t.older)}</a>` : ''}</nav>`
        : '';
    const head = [t.time, t.method, t.path, t.status, t.duration, t.requestId, t.idempotencyKey, t.keyId]
      .map((h) => `<th scope="col">${esc(h)}</th>`)
      .join('');
    const list = rows.length
      ? `<div class="table-wrap" tabindex="0"><table class="cards reqlog"><caption class="sr-only">${esc(t.title)}</caption><thead><tr>${head}</tr></thead><tbody>${rows.join('\n')}</tbody></table></div>${pager}`
      : `<p class="muted">${esc(t.empty)}</p>${pager}`;
    kit.render(res, ctx, { ...frame, body: `<p class="lead">${esc(t.lead)}</p>${form}${list}`, message: badInput });
  });
}
