import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import { RecurringInvoice, RecurringRun } from '@inv/contracts';
import { esc, fill } from '../../kit/html';
import type { Lang } from '../../kit/i18n';
import type { PageAnswer } from '../../kit/api-client';
import { td, type Ctx, type PagesKit } from '../../kit/pages-kit';
import type { Flash } from '../../kit/sessions';
import { customerNames, day, factTable, money, pageParam, pager, percent, query, selectFilter } from '../receivables-format';
import { texts, type RecurringTexts } from './texts';

type Schedule = z.output<typeof RecurringInvoice>;

/** GET /recurring-invoices/ */
const RecurringPage = z.object({
  recurring_invoices: z.array(RecurringInvoice),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
/** GET /recurring-invoices/{id}/runs */
const RunPage = z.object({ runs: z.array(RecurringRun), total: z.number().int(), page: z.number().int(), limit: z.number().int() });

const ID = /^[1-9]\d{0,8}$/;
const STATUSES = ['active', 'paused', 'ended'] as const;
const LIMIT = 25;

/**
 * Recurring invoices (Serienrechnungen): the schedules with their status and next run, one schedule with its template
 * and its runs (each with the invoice it issued), and pausing and resuming it. Reads need `read`, pausing and
 * resuming `invoices:write` (the gateway checks again).
 */
export function registerRecurringPages(router: Router, kit: PagesKit): void {
  const rt = (ctx: Ctx): RecurringTexts => texts[ctx.lang];
  const current = 'recurring' as const;
  const codeOf = (body: Record<string, unknown>) =>
    typeof body.code === 'string' ? body.code : typeof body.error_code === 'string' ? body.error_code : '';
  const problemText = (ctx: Ctx, answer: Extract<PageAnswer<unknown>, { ok: false }>) =>
    rt(ctx).codes[codeOf(answer.body)] ?? kit.problem(ctx, answer);
  const statusOf = (answer: { status: number }) => (answer.status >= 500 ? 502 : answer.status);
  const notFound = (res: Response, ctx: Ctx) =>
    kit.render(res, ctx, {
      status: 404,
      title: rt(ctx).schedule,
      current,
      body: `<p><a href="/app/recurring">${esc(rt(ctx).back)}</a></p>`,
      message: { kind: 'error', text: rt(ctx).notFound },
    });
  const nameOf = (t: RecurringTexts, s: Schedule) => s.name || fill(t.unnamed, { id: String(s.id) });
  const statusBadge = (t: RecurringTexts, s: Schedule) =>
    `<span class="badge${s.status === 'active' ? '' : s.status === 'paused' && s.paused_reason !== 'user' ? ' bad' : ' off'}">${esc(
      s.status === 'paused' && s.paused_reason
        ? (t.pausedReasons[s.paused_reason] ?? t.statuses.paused)
        : (t.statuses[s.status] ?? s.status),
    )}</span>`;
  const rhythm = (t: RecurringTexts, s: Schedule) =>
    `${t.intervals[s.schedule.interval] ?? s.schedule.interval}, ${
      s.schedule.day_of_month === 'last' ? t.lastDay : fill(t.dayOfMonth, { day: String(s.schedule.day_of_month) })
    }`;
  const outcomeBadge = (t: RecurringTexts, outcome: string) =>
    `<span class="badge${['sent', 'finalized', 'draft_created'].includes(outcome) ? '' : outcome === 'running' ? ' off' : ' bad'}">${esc(
      t.outcomes[outcome] ?? outcome,
    )}</span>`;
  const invoiceLink = (t: RecurringTexts, id: number | null) =>
    id === null ? '' : `<a href="/app/invoices/${esc(id)}">${esc(t.invoice)} ${esc(id)}</a>`;

  // ---------------------------------------------------------------- the list

  router.get('/recurring', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (!ctx) return;
    const t = rt(ctx);
    let message = await kit.takeFlash(req, res);
    const status = STATUSES.find((s) => s === req.query.status);
    const page = pageParam(req.query.page);
    const as = kit.asMember(req, res, ctx.s);
    const listed = await kit.api('GET', `/recurring-invoices/${query({ status, page, limit: LIMIT })}`, undefined, as, RecurringPage);
    let code = 200;
    if (!listed.ok && !message) {
      code = statusOf(listed);
      message = { kind: 'error', text: problemText(ctx, listed) };
    }
    const schedules = listed.ok ? listed.body.recurring_invoices : [];
    const names = await customerNames(
      kit.api,
      as,
      schedules.map((s) => s.template.customer_id),
    );
    const rows = schedules
      .map(
        (s) =>
          `<tr>${td(t.name, `<a href="/app/recurring/${esc(s.id)}">${esc(nameOf(t, s))}</a>`)}${td(t.customer, esc(names.get(s.template.customer_id) ?? ''))}${td(
            t.interval,
            esc(rhythm(t, s)),
          )}${td(t.nextRun, esc(day(ctx.lang, s.next_run_date)))}${td(t.status, statusBadge(t, s))}${td(
            t.lastRun,
            s.last_run ? `${esc(day(ctx.lang, s.last_run.date))} ${outcomeBadge(t, s.last_run.outcome)}` : '',
          )}</tr>`,
      )
      .join('\n');
    const filter = selectFilter({
      action: '/app/recurring',
      name: 'status',
      label: t.filter,
      button: t.show,
      options: [['', t.allStatuses], ...STATUSES.map((s): [string, string] => [s, t.statuses[s]!])],
      selected: status ?? '',
    });
    const head = [t.name, t.customer, t.interval, t.nextRun, t.status, t.lastRun].map((h) => `<th scope="col">${esc(h)}</th>`).join('');
    const table = schedules.length
      ? `<div class="table-wrap" tabindex="0"><table class="cards"><caption class="sr-only">${esc(t.recurring)}</caption><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table></div>`
      : listed.ok
        ? `<p class="muted">${esc(t.none)}</p>`
        : '';
    const paging = listed.ok ? pager(listed.body, (p) => `/app/recurring${query({ status, page: p })}`, t) : '';
    kit.render(res, ctx, {
      status: code,
      title: t.recurring,
      current,
      message,
      body: `<section class="card">${filter}</section>${table}${paging}`,
    });
  });

  // ---------------------------------------------------------------- one schedule

  const positionsTable = (ctx: Ctx, s: Schedule) => {
    const t = rt(ctx);
    const rows = s.template.positions
      .map(
        (p) =>
          `<tr>${td(t.title, p.title ? esc(p.title) : p.product_id ? esc(fill(t.fromProduct, { id: String(p.product_id) })) : '')}${td(
            t.quantity,
            esc(number(ctx.lang, p.quantity)),
          )}${td(t.unit, esc(p.unit_id ?? ''))}${td(t.unitPrice, esc(p.unit_net_amount === undefined ? '' : money(ctx.lang, p.unit_net_amount)))}${td(
            t.taxRate,
            esc(p.tax_rate === undefined ? '' : percent(ctx.lang, p.tax_rate)),
          )}</tr>`,
      )
      .join('');
    const head = [t.title, t.quantity, t.unit, t.unitPrice, t.taxRate].map((h) => `<th scope="col">${esc(h)}</th>`).join('');
    return `<div class="table-wrap" tabindex="0"><table class="cards"><caption class="sr-only">${esc(t.positions)}</caption><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table></div>`;
  };

  async function schedulePage(req: Request, res: Response, ctx: Ctx, id: string, message?: Flash) {
    const t = rt(ctx);
    const as = kit.asMember(req, res, ctx.s);
    const page = pageParam(req.query.page);
    const [found, runs] = await Promise.all([
      kit.api('GET', `/recurring-invoices/${encodeURIComponent(id)}`, undefined, as, RecurringInvoice),
      kit.api('GET', `/recurring-invoices/${encodeURIComponent(id)}/runs${query({ page, limit: LIMIT })}`, undefined, as, RunPage),
    ]);
    if (!found.ok) {
      if (found.status === 404) return notFound(res, ctx);
      return kit.render(res, ctx, {
        status: statusOf(found),
        title: t.schedule,
        current,
        body: '',
        message: { kind: 'error', text: problemText(ctx, found) },
      });
    }
    const s = found.body;
    const names = await customerNames(kit.api, as, [s.template.customer_id]);
    const csrf = `<input type="hidden" name="csrf" value="${esc(ctx.s.csrf)}">`;
    const path = `/recurring-invoices/${s.id}`;
    const actions = !kit.may(ctx, 'PUT', path)
      ? ''
      : s.status === 'active'
        ? `<form method="post" action="/app/recurring/${esc(s.id)}/pause">${csrf}<button type="submit" class="secondary">${esc(t.pause)}</button></form>`
        : s.status === 'paused'
          ? `<form method="post" action="/app/recurring/${esc(s.id)}/resume">${csrf}<p class="muted">${esc(t.resumeHint)}</p><button type="submit">${esc(t.resume)}</button></form>`
          : '';
    const to = s.template.email ? [s.template.email.to].flat().join(', ') : '';
    const automation = `${s.auto_finalize ? t.autoFinalize : t.autoDraft}${s.auto_send_email && to ? ` ${fill(t.autoSend, { to })}` : ''}`;
    const facts: [string, string][] = [
      [t.customer, esc(names.get(s.template.customer_id) ?? `#${s.template.customer_id}`)],
      [t.status, statusBadge(t, s)],
      [t.interval, esc(rhythm(t, s))],
      [t.start, esc(day(ctx.lang, s.schedule.start_date))],
      [t.end, esc(s.schedule.end_date ? day(ctx.lang, s.schedule.end_date) : t.noEnd)],
      [t.nextRun, esc(day(ctx.lang, s.next_run_date))],
      [t.automation, esc(automation)],
      [t.format, esc(s.template.invoice_format ?? '')],
      [t.buyerReference, esc(s.template.buyer_reference ?? '')],
      [t.note, esc(s.template.note ?? '')],
    ];
    const lastError =
      s.last_run?.error && s.status === 'paused'
        ? `<div class="msg error"><strong>${esc(t.lastError)}:</strong> ${esc(s.last_run.error)}</div>`
        : '';
    const runList = runs.ok ? runs.body.runs : [];
    const runRows = runList
      .map(
        (r) =>
          `<tr>${td(t.runDate, esc(day(ctx.lang, r.date)))}${td(t.period, `${esc(day(ctx.lang, r.period_start))} – ${esc(day(ctx.lang, r.period_end))}`)}${td(
            t.outcome,
            outcomeBadge(t, r.outcome),
          )}${td(t.invoice, invoiceLink(t, r.invoice_id))}${td(t.error, r.error ? `<span class="muted">${esc(r.error)}</span>` : '')}</tr>`,
      )
      .join('\n');
    const runHead = [t.runDate, t.period, t.outcome, t.invoice, t.error].map((h) => `<th scope="col">${esc(h)}</th>`).join('');
    const runTable = runList.length
      ? `<div class="table-wrap" tabindex="0"><table class="cards"><caption class="sr-only">${esc(t.runs)}</caption><thead><tr>${runHead}</tr></thead><tbody>${runRows}</tbody></table></div>`
      : runs.ok
        ? `<p class="muted">${esc(t.noRuns)}</p>`
        : `<p class="msg error">${esc(problemText(ctx, runs))}</p>`;
    const paging = runs.ok ? pager(runs.body, (p) => `/app/recurring/${s.id}${query({ page: p })}`, t) : '';
    kit.render(res, ctx, {
      title: nameOf(t, s),
      current,
      message,
      body: `${lastError}<section class="card" aria-labelledby="facts-h"><h2 id="facts-h" class="sr-only">${esc(t.schedule)}</h2>${factTable(facts)}${actions ? `<div class="actions">${actions}</div>` : ''}</section>
<section class="rsec" aria-labelledby="positions-h"><h2 id="positions-h">${esc(t.positions)}</h2>${positionsTable(ctx, s)}</section>
<section class="rsec" aria-labelledby="runs-h"><h2 id="runs-h">${esc(t.runs)}</h2>${runTable}${paging}</section><p><a href="/app/recurring">${esc(t.back)}</a></p>`,
    });
  }

  router.get('/recurring/:id', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (!ctx) return;
    if (!ID.test(req.params.id)) return notFound(res, ctx);
    await schedulePage(req, res, ctx, req.params.id, await kit.takeFlash(req, res));
  });

  /** Pause or resume: PUT /recurring-invoices/{id} with the status, then back to the schedule (Post/Redirect/Get). */
  for (const [action, status] of [
    ['pause', 'paused'],
    ['resume', 'active'],
  ] as const)
    router.post(`/recurring/:id/${action}`, async (req, res) => {
      const ctx = await kit.signedIn(req, res, true);
      if (!ctx) return;
      const t = rt(ctx);
      const { id } = req.params;
      if (!ID.test(id)) return notFound(res, ctx);
      const path = `/recurring-invoices/${encodeURIComponent(id)}`;
      if (!kit.may(ctx, 'PUT', path)) return kit.refuse(res, ctx, { title: t.schedule, current });
      const answer = await kit.api('PUT', path, { status }, kit.asMember(req, res, ctx.s), RecurringInvoice);
      await kit.redirectWith(
        req,
        res,
        `/app/recurring/${id}`,
        answer.ok ? { kind: 'ok', text: status === 'paused' ? t.paused : t.resumed } : { kind: 'error', text: problemText(ctx, answer) },
      );
    });
}

/** A quantity as the page's language writes numbers (up to 6 decimals, as the API keeps them). */
function number(lang: Lang, v: number): string {
  return new Intl.NumberFormat(lang === 'de' ? 'de-DE' : 'en-GB', { maximumFractionDigits: 6 }).format(v);
}
