import { randomUUID } from 'node:crypto';
import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import { DownloadLink, InvoicePage, Reminder, ReminderListQuery, ReminderPage, ReminderProposal, ReminderSettings } from '@inv/contracts';
import { esc, fill } from '../../kit/html';
import type { PageAnswer } from '../../kit/api-client';
import { td, type Ctx, type PagesKit } from '../../kit/pages-kit';
import type { Flash } from '../../kit/sessions';
import { customerNames, day, factTable, money, pageParam, pager, query } from '../receivables-format';
import { texts, type ReminderTexts } from './texts';

type ReminderView = z.output<typeof Reminder>;

/** GET /invoice/reminder-proposals */
const ProposalList = z.object({ proposals: z.array(ReminderProposal) });
/** GET /invoice/{id}/reminders */
const ReminderList = z.object({ reminders: z.array(Reminder) });
/** The part of GET /invoice/{id} the reminder page shows. */
const InvoiceHead = z.object({
  id: z.number().int(),
  invoice_number: z.string(),
  customer_id: z.number().int(),
  status: z.string(),
  due_date: z.string().nullable(),
  open_amount: z.number().nullable(),
  currency: z.string(),
});

const ID = /^[1-9]\d{0,8}$/;
const IDEM = /^[\w-]{8,64}$/;
/**
 * Overdue invoices per page: each is one more call for its reminders (the page makes at most 3 + 10 + 6 calls, well
 * within the company's rate limit of 50 a second).
 */
const OVERDUE_LIMIT = 10;

/**
 * Reminders (Mahnwesen): the daily run's proposals to approve (send by e-mail or create the PDF only), the overdue
 * invoices with the reminders they had, and one invoice's reminders with their PDFs and the next level. Reads need
 * `read`, issuing a reminder `invoices:write` (the gateway checks again).
 */
export function registerReminderPages(router: Router, kit: PagesKit): void {
  const rt = (ctx: Ctx): ReminderTexts => texts[ctx.lang];
  const current = 'reminders' as const;
  const levelName = (t: ReminderTexts, level: number) => t.levels[level] ?? String(level);
  const codeOf = (body: Record<string, unknown>) =>
    typeof body.code === 'string' ? body.code : typeof body.error_code === 'string' ? body.error_code : '';
  const problemText = (ctx: Ctx, answer: Extract<PageAnswer<unknown>, { ok: false }>) => {
    const t = rt(ctx);
    const known = t.codes[codeOf(answer.body)];
    if (known) return known;
    const errors = Array.isArray(answer.body.errors) ? (answer.body.errors as { path?: unknown }[]) : [];
    if (answer.status === 400 && errors.some((e) => typeof e.path === 'string' && /^(to|cc|bcc|send_email)(\.|$)/.test(e.path)))
      return t.emailProblem;
    return kit.problem(ctx, answer);
  };
  const statusOf = (answer: { status: number }) => (answer.status >= 500 ? 502 : answer.status);
  const canIssue = (ctx: Ctx) => kit.may(ctx, 'POST', '/invoice/1/reminders');
  const csrfField = (ctx: Ctx) => `<input type="hidden" name="csrf" value="${esc(ctx.s.csrf)}">`;
  const notFound = (res: Response, ctx: Ctx) =>
    kit.render(res, ctx, {
      status: 404,
      title: rt(ctx).reminders,
      current,
      body: `<p><a href="/app/reminders">${esc(rt(ctx).back)}</a></p>`,
      message: { kind: 'error', text: rt(ctx).notFound },
    });

  /** The two buttons that issue a reminder: by e-mail, or the PDF only. */
  const issueForms = (ctx: Ctx, o: { invoiceId: number; number: string; level?: number; back: 'list' | 'invoice' }) => {
    const t = rt(ctx);
    const hidden = `${csrfField(ctx)}<input type="hidden" name="invoice_id" value="${esc(o.invoiceId)}">${
      o.level ? `<input type="hidden" name="level" value="${esc(o.level)}">` : ''
    }<input type="hidden" name="number" value="${esc(o.number)}"><input type="hidden" name="back" value="${o.back}">`;
    const lv = o.level ? levelName(t, o.level) : t.next;
    const context = `<span class="sr-only">: ${esc(lv)}, ${esc(o.number)}</span>`;
    return `<div class="row-actions"><form method="post" action="/app/reminders/issue">${hidden}<input type="hidden" name="idem" value="${randomUUID()}"><input type="hidden" name="send" value="email"><button type="submit">${esc(t.sendEmail)}${context}</button></form><form method="post" action="/app/reminders/issue">${hidden}<input type="hidden" name="idem" value="${randomUUID()}"><input type="hidden" name="send" value="pdf"><button type="submit" class="secondary">${esc(t.pdfOnly)}${context}</button></form></div>`;
  };
  const pdfLink = (ctx: Ctx, r: ReminderView) =>
    `<a href="/app/reminders/invoices/${esc(r.invoice_id)}/${esc(r.id)}/pdf">${esc(rt(ctx).pdf)}<span class="sr-only">: ${esc(levelName(rt(ctx), r.level))}, ${esc(day(ctx.lang, r.date))}</span></a>`;

  // ---------------------------------------------------------------- proposals and overdue invoices

  async function remindersPage(req: Request, res: Response, ctx: Ctx, status: number, message?: Flash) {
    const t = rt(ctx);
    const as = kit.asMember(req, res, ctx.s);
    const page = pageParam(req.query.page);
    const [settings, proposals, overdue] = await Promise.all([
      kit.api('GET', '/invoice/reminder-settings', undefined, as, ReminderSettings),
      kit.api('GET', '/invoice/reminder-proposals', undefined, as, ProposalList),
      kit.api(
        'GET',
        `/invoice/${query({ overdue: 'true', document_type: 'INVOICE', sort: 'date', page, limit: OVERDUE_LIMIT })}`,
        undefined,
        as,
        InvoicePage,
      ),
    ]);
    const failed = [proposals, overdue].find((a): a is Extract<typeof a, { ok: false }> => !a.ok);
    if (failed && !message) {
      status = statusOf(failed);
      message = { kind: 'error', text: problemText(ctx, failed) };
    }
    const invoices = overdue.ok ? overdue.body.invoices : [];
    const proposed = proposals.ok ? proposals.body.proposals : [];
    const [issued, names] = await Promise.all([
      Promise.all(invoices.map((inv) => kit.api('GET', `/invoice/${inv.id}/reminders`, undefined, as, ReminderList))),
      customerNames(kit.api, as, [...proposed.map((p) => p.customer_id), ...invoices.map((i) => i.customer_id)]),
    ]);
    const customer = (id: number) => esc(names.get(id) ?? '');

    const mode = settings.ok
      ? `<p class="lead"><strong>${esc(t.mode)}:</strong> ${esc(t.modes[settings.body.mode] ?? settings.body.mode)}</p>`
      : '';
    const act = canIssue(ctx);
    /** The invoice's number (a link to it) with the customer's name below. */
    const invoiceCell = (id: number, number: string, customerId: number, note = '') =>
      `<span><a href="/app/invoices/${esc(id)}">${esc(number)}</a>${names.get(customerId) ? `<br>${customer(customerId)}` : ''}${
        note ? `<br><span class="muted">${esc(note)}</span>` : ''
      }</span>`;
    const proposalRows = proposed
      .map(
        (p) =>
          `<tr>${td(t.invoice, invoiceCell(p.invoice_id, p.number, p.customer_id, p.reason ? fill(t.notSent, { reason: p.reason }) : ''))}${td(t.level, esc(levelName(t, p.level)))}${td(
            t.dueDate,
            esc(day(ctx.lang, p.due_date)),
          )}${td(t.openAmount, esc(money(ctx.lang, p.open_amount)))}${td(t.proposedOn, esc(day(ctx.lang, p.proposed_on)))}${
            act ? `<td>${issueForms(ctx, { invoiceId: p.invoice_id, number: p.number, level: p.level, back: 'list' })}</td>` : ''
          }</tr>`,
      )
      .join('\n');
    const proposalHead = [t.invoice, t.level, t.dueDate, t.openAmount, t.proposedOn].map((h) => `<th scope="col">${esc(h)}</th>`).join('');
    const proposalTable = proposed.length
      ? `<div class="table-wrap" tabindex="0"><table class="cards"><caption class="sr-only">${esc(t.proposals)}</caption><thead><tr>${proposalHead}${
          act ? `<th scope="col"><span class="sr-only">${esc(t.sendEmail)}</span></th>` : ''
        }</tr></thead><tbody>${proposalRows}</tbody></table></div>`
      : proposals.ok
        ? `<p class="muted">${esc(t.noProposals)}</p>`
        : '';

    const overdueRows = invoices
      .map((inv, i) => {
        const list = issued[i]!;
        const lines = list.ok
          ? list.body.reminders.length
            ? list.body.reminders.map((r) => `${esc(levelName(t, r.level))}, ${esc(day(ctx.lang, r.date))} (${pdfLink(ctx, r)})`)
            : [`<span class="muted">${esc(t.noneYet)}</span>`]
          : [];
        lines.push(
          `<a href="/app/reminders/invoices/${esc(inv.id)}">${esc(t.details)}<span class="sr-only">: ${esc(inv.invoice_number)}</span></a>`,
        );
        return `<tr>${td(t.invoice, invoiceCell(inv.id, inv.invoice_number, inv.customer_id))}${td(t.dueDate, esc(day(ctx.lang, inv.due_date)))}${td(
          t.openAmount,
          esc(money(ctx.lang, inv.open_amount, inv.currency)),
        )}${td(t.issued, `<span>${lines.join('<br>')}</span>`)}</tr>`;
      })
      .join('\n');
    const overdueHead = [t.invoice, t.dueDate, t.openAmount, t.issued].map((h) => `<th scope="col">${esc(h)}</th>`).join('');
    const overdueTable = invoices.length
      ? `<div class="table-wrap" tabindex="0"><table class="cards"><caption class="sr-only">${esc(t.overdue)}</caption><thead><tr>${overdueHead}</tr></thead><tbody>${overdueRows}</tbody></table></div>`
      : overdue.ok
        ? `<p class="muted">${esc(t.noOverdue)}</p>`
        : '';
    const paging = overdue.ok ? pager(overdue.body, (p) => `/app/reminders${query({ page: p })}`, { ...t, next: t.nextPage }) : '';
    kit.render(res, ctx, {
      status,
      title: t.reminders,
      current,
      sub: 'dunning',
      message,
      body: `${mode}<section class="rsec" aria-labelledby="proposals-h"><h2 id="proposals-h">${esc(t.proposals)}</h2>${proposalTable}</section>
<section class="rsec" aria-labelledby="overdue-h"><h2 id="overdue-h">${esc(t.overdue)}</h2>${overdueTable}${paging}</section>`,
    });
  }

  router.get('/reminders', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (ctx) await remindersPage(req, res, ctx, 200, await kit.takeFlash(req, res));
  });

  // ---------------------------------------------------------------- every reminder sent

  /** The filters of the sent list the browser may give (the API's ReminderListQuery judges their values). */
  const SENT_FILTERS = ['level', 'date_from', 'date_to', 'cursor'] as const;

  router.get('/reminders/sent', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (!ctx) return;
    const t = rt(ctx);
    const values: Record<string, string> = {};
    for (const name of SENT_FILTERS) {
      const v = typeof req.query[name] === 'string' ? (req.query[name] as string).trim() : '';
      if (v) values[name] = v;
    }
    // a value the API would refuse is reported here, without a call
    const bad = !ReminderListQuery.safeParse(values).success;
    const listed = bad
      ? undefined
      : await kit.api(
          'GET',
          `/invoice/reminders${query({ ...values, limit: 25 })}`,
          undefined,
          kit.asMember(req, res, ctx.s),
          ReminderPage,
        );
    const option = (value: string, label: string) =>
      `<option value="${value}"${(values.level ?? '') === value ? ' selected' : ''}>${esc(label)}</option>`;
    const date = (name: 'date_from' | 'date_to', label: string) =>
      `<div class="field"><label for="s-${name}">${esc(label)}</label><input id="s-${name}" name="${name}" type="date" value="${esc(values[name] ?? '')}"></div>`;
    const filters = `<form class="filters card" method="get" action="/app/reminders/sent" role="search" aria-label="${esc(t.filter)}"><div class="fgrid">
<div class="field"><label for="s-level">${esc(t.level)}</label><select id="s-level" name="level">${option('', t.allLevels)}${[1, 2, 3]
      .map((l) => option(String(l), levelName(t, l)))
      .join('')}</select></div>${date('date_from', t.dateFrom)}${date('date_to', t.dateTo)}</div>
<p class="actions"><button type="submit">${esc(t.filter)}</button></p></form>`;
    const frame = { title: t.sentTitle, current, sub: 'sentReminders' };
    if (!listed || !listed.ok) {
      const message = listed && !listed.ok ? problemText(ctx, listed) : t.badFilters;
      return kit.render(res, ctx, {
        ...frame,
        status: listed && !listed.ok ? statusOf(listed) : 400,
        body: `<p class="lead">${esc(t.sentLead)}</p>${filters}`,
        message: { kind: 'error', text: message },
      });
    }
    const { reminders, next_cursor } = listed.body;
    const rows = reminders
      .map(
        (r) =>
          `<tr><td class="nowrap" data-label="${esc(t.date)}">${esc(day(ctx.lang, r.date))}</td>${td(t.level, esc(levelName(t, r.level)))}${td(
            t.invoice,
            `<span><a href="/app/reminders/invoices/${esc(r.invoice_id)}">${esc(r.invoice_number)}</a>${
              r.customer_name ? `<br>${esc(r.customer_name)}` : ''
            }</span>`,
          )}<td class="num" data-label="${esc(t.total)}">${esc(money(ctx.lang, r.total))}</td>${td(
            t.delivery,
            `<span><span class="nowrap">${esc(r.email_id ? t.byEmail : t.noEmail)}</span><br><span class="muted">${esc(t.sources[r.source] ?? r.source)}</span></span>`,
          )}${td(t.pdf, pdfLink(ctx, r))}</tr>`,
      )
      .join('\n');
    const head = [t.date, t.level, t.invoice, t.total, t.delivery, t.pdf]
      .map((h, i) => `<th scope="col"${i === 3 ? ' class="num"' : ''}>${esc(h)}</th>`)
      .join('');
    const table = reminders.length
      ? `<div class="table-wrap" tabindex="0"><table class="cards"><caption class="sr-only">${esc(t.sentTitle)}</caption><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table></div>`
      : `<p class="muted">${esc(t.noSent)}</p>`;
    const keep = { level: values.level, date_from: values.date_from, date_to: values.date_to };
    const links = [
      values.cursor ? `<a class="button secondary" href="${esc(`/app/reminders/sent${query(keep)}`)}">${esc(t.firstPage)}</a>` : '',
      next_cursor
        ? `<a class="button secondary" href="${esc(`/app/reminders/sent${query({ ...keep, cursor: next_cursor })}`)}" rel="next">${esc(t.olderPage)}</a>`
        : '',
    ].filter(Boolean);
    const paging = links.length ? `<nav class="actions" aria-label="${esc(t.pagination)}">${links.join('')}</nav>` : '';
    kit.render(res, ctx, { ...frame, body: `<p class="lead">${esc(t.sentLead)}</p>${filters}${table}${paging}` });
  });

  // ---------------------------------------------------------------- one invoice's reminders

  async function invoicePage(req: Request, res: Response, ctx: Ctx, id: string, status: number, message?: Flash) {
    const t = rt(ctx);
    const as = kit.asMember(req, res, ctx.s);
    const [invoice, list] = await Promise.all([
      kit.api('GET', `/invoice/${encodeURIComponent(id)}`, undefined, as, InvoiceHead),
      kit.api('GET', `/invoice/${encodeURIComponent(id)}/reminders`, undefined, as, ReminderList),
    ]);
    if (!invoice.ok || !list.ok) {
      const failed = !invoice.ok ? invoice : (list as Extract<typeof list, { ok: false }>);
      if (failed.status === 404) return notFound(res, ctx);
      return kit.render(res, ctx, {
        status: statusOf(failed),
        title: t.reminders,
        current,
        body: '',
        message: { kind: 'error', text: problemText(ctx, failed) },
      });
    }
    const inv = invoice.body;
    const reminders = list.body.reminders;
    const names = await customerNames(kit.api, as, [inv.customer_id]);
    const cards = reminders
      .map(
        (r) =>
          `<article class="card" aria-labelledby="r-${esc(r.id)}"><h3 id="r-${esc(r.id)}">${esc(levelName(t, r.level))} · ${esc(day(ctx.lang, r.date))}</h3>${factTable(
            [
              [t.subject, esc(r.subject)],
              [t.openAmount, esc(money(ctx.lang, r.open_amount))],
              [t.fees, esc(money(ctx.lang, r.fees))],
              [t.flatFee, r.flat_fee ? esc(money(ctx.lang, r.flat_fee)) : ''],
              [t.interest, esc(money(ctx.lang, r.interest))],
              [t.total, `<strong>${esc(money(ctx.lang, r.total))}</strong>`],
              [t.payBy, esc(day(ctx.lang, r.pay_by))],
              [t.delivery, `${esc(r.email_id ? t.byEmail : t.noEmail)} · ${esc(t.sources[r.source] ?? r.source)}`],
            ],
          )}<p>${pdfLink(ctx, r)}</p></article>`,
      )
      .join('\n');
    const table = reminders.length ? cards : `<p class="muted">${esc(t.noReminders)}</p>`;
    const top = reminders.reduce((m, r) => Math.max(m, r.level), 0);
    const remindable = ['OPEN', 'SENT'].includes(inv.status) && (inv.open_amount ?? 0) > 0;
    const next =
      canIssue(ctx) && remindable
        ? top >= 3
          ? `<p class="muted">${esc(t.allDone)}</p>`
          : `<section class="card" aria-labelledby="next-h"><h2 id="next-h">${esc(t.next)}</h2><p>${esc(fill(t.nextLead, { level: levelName(t, top + 1) }))}</p>${issueForms(
              ctx,
              { invoiceId: inv.id, number: inv.invoice_number, level: top + 1, back: 'invoice' },
            )}</section>`
        : '';
    const facts = `<section class="card"><p class="lead"><a href="/app/invoices/${esc(inv.id)}">${esc(inv.invoice_number)}</a>${
      names.get(inv.customer_id) ? ` · ${esc(names.get(inv.customer_id))}` : ''
    }</p><p>${esc(t.dueDate)}: ${esc(day(ctx.lang, inv.due_date))} · ${esc(t.openAmount)}: ${esc(money(ctx.lang, inv.open_amount, inv.currency))}</p></section>`;
    kit.render(res, ctx, {
      status,
      title: fill(t.invoiceReminders, { number: inv.invoice_number }),
      current,
      message,
      body: `${facts}${next}<h2>${esc(t.issued)}</h2>${table}<p><a href="/app/reminders">${esc(t.back)}</a></p>`,
    });
  }

  router.get('/reminders/invoices/:id', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (!ctx) return;
    if (!ID.test(req.params.id)) return notFound(res, ctx);
    await invoicePage(req, res, ctx, req.params.id, 200, await kit.takeFlash(req, res));
  });

  /** A reminder's PDF: the API answers a short-lived presigned link, the browser is sent there (the file is an attachment). */
  router.get('/reminders/invoices/:id/:rid/pdf', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (!ctx) return;
    const { id, rid } = req.params;
    if (!ID.test(id) || !ID.test(rid)) return notFound(res, ctx);
    const link = await kit.api(
      'GET',
      `/invoice/${encodeURIComponent(id)}/reminders/${encodeURIComponent(rid)}/pdf`,
      undefined,
      kit.asMember(req, res, ctx.s),
      DownloadLink,
    );
    if (!link.ok) {
      if (link.status === 404) return notFound(res, ctx);
      return kit.render(res, ctx, {
        status: statusOf(link),
        title: rt(ctx).reminders,
        current,
        body: '',
        message: { kind: 'error', text: problemText(ctx, link) },
      });
    }
    if (!/^https?:\/\//i.test(link.body.url))
      return kit.render(res, ctx, {
        status: 502,
        title: rt(ctx).reminders,
        current,
        body: '',
        message: { kind: 'error', text: ctx.t.error },
      });
    res.setHeader('cache-control', 'no-store');
    res.redirect(303, link.body.url);
  });

  // ---------------------------------------------------------------- issuing one

  router.post('/reminders/issue', async (req, res) => {
    const ctx = await kit.signedIn(req, res, true);
    if (!ctx) return;
    const t = rt(ctx);
    const id = kit.field(req, 'invoice_id');
    if (!ID.test(id)) return notFound(res, ctx);
    const apiPath = `/invoice/${encodeURIComponent(id)}/reminders`;
    if (!kit.may(ctx, 'POST', apiPath)) return kit.refuse(res, ctx, { title: t.reminders, current });
    const level = kit.field(req, 'level');
    const email = kit.field(req, 'send') === 'email';
    const back = kit.field(req, 'back') === 'invoice' ? `/app/reminders/invoices/${id}` : '/app/reminders';
    const idem = kit.field(req, 'idem');
    const answer = await kit.api(
      'POST',
      apiPath,
      { ...(/^[123]$/.test(level) ? { level: Number(level) } : {}), send_email: email },
      kit.asMember(req, res, ctx.s, IDEM.test(idem) ? idem : undefined),
      Reminder,
    );
    if (!answer.ok) return kit.redirectWith(req, res, back, { kind: 'error', text: problemText(ctx, answer) });
    const r = answer.body;
    // the invoice number the form showed, for the message only (escaped where it is shown)
    const number = kit.field(req, 'number').slice(0, 64) || `#${r.invoice_id}`;
    await kit.redirectWith(req, res, back, {
      kind: 'ok',
      text: fill(r.email_id ? t.sent : t.created, { level: levelName(t, r.level), number }),
    });
  });
}
