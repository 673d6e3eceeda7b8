import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import {
  Attachment,
  AttachmentLink,
  AuditLogPage,
  Customer,
  DownloadLink,
  EmailRecord,
  Invoice,
  InvoiceListQuery,
  InvoicePage,
  InvoiceSort,
  InvoiceStatus,
  PaymentList,
  Reminder,
} from '@inv/contracts';
import { esc, fill } from '../../kit/html';
import type { As } from '../../kit/api-client';
import { td, type Ctx, type PagesKit } from '../../kit/pages-kit';
import type { Flash } from '../../kit/sessions';
import { registerInvoiceActions } from './invoice-actions';
import type { InvoiceTexts } from './texts';
import {
  addMoney,
  cell,
  bytes,
  customerName,
  day,
  money,
  num,
  numberOf,
  rate,
  refusal,
  statusBadge,
  statusOf,
  textsOf,
  validId,
  when,
  type InvoiceView,
} from './view';

/**
 * The one query parameter the list's search field maps to (GET /invoice/?q=: invoice number or customer name). Should
 * the API rename it, this is the only place to change.
 */
export const SEARCH_PARAM = 'q';
/** The list's filters as the page's own query string names them: exactly the API's (GET /invoice/, InvoiceListQuery). */
const FILTER_KEYS = [
  SEARCH_PARAM,
  'status',
  'customer_id',
  'document_type',
  'date_from',
  'date_to',
  'due_from',
  'due_to',
  'open',
  'overdue',
  'sort',
  'page',
] as const;
export const PAGE_SIZE = 25;
/** Customers offered in the list's customer filter (the first page of GET /customer/). */
const CUSTOMER_CHOICES = 100;

export const CustomerName = Customer.pick({ id: true, organization_name: true, first_name: true, last_name: true, email: true });
const CustomerNames = z.array(CustomerName);
const AttachmentList = z.object({ attachments: z.array(Attachment) });
const EmailList = z.object({ emails: z.array(EmailRecord) });
const ReminderList = z.object({ reminders: z.array(Reminder) });
/** A presigned link (documents, reminders, attachments): the browser is sent there. */
const Link = z.union([AttachmentLink, DownloadLink]);

/** The list's filters from the page's query string: whitelisted, trimmed, bounded, then checked as the API checks them. */
export function listFilters(query: Request['query']): { values: Record<string, string>; bad: string[] } {
  const values: Record<string, string> = {};
  for (const k of FILTER_KEYS) {
    const v = query[k];
    if (typeof v === 'string' && v.trim() !== '') values[k] = v.trim().slice(0, 100);
  }
  const parsed = InvoiceListQuery.safeParse({ ...values, limit: String(PAGE_SIZE) });
  const bad = parsed.success ? [] : [...new Set(parsed.error.issues.map((i) => String(i.path[0] ?? '')))];
  return { values, bad };
}

const qs = (values: Record<string, string>) => new URLSearchParams(values).toString();

export function registerInvoicePages(router: Router, kit: PagesKit): void {
  const as = (req: Request, res: Response, ctx: Ctx): As => kit.asMember(req, res, ctx.s);

  /** Names of the customers on a page: one list call (also the filter's choices), single reads for the rest. */
  async function customersFor(req: Request, res: Response, ctx: Ctx, ids: number[]) {
    const names = new Map<number, z.output<typeof CustomerName>>();
    const listed = await kit.api('GET', `/customer/?limit=${CUSTOMER_CHOICES}`, undefined, as(req, res, ctx), CustomerNames);
    const choices = listed.ok ? listed.body : [];
    for (const c of choices) names.set(c.id, c);
    const missing = [...new Set(ids)].filter((id) => !names.has(id)).slice(0, PAGE_SIZE);
    const found = await Promise.all(
      missing.map((id) => kit.api('GET', `/customer/${encodeURIComponent(String(id))}`, undefined, as(req, res, ctx), CustomerName)),
    );
    for (const f of found) if (f.ok) names.set(f.body.id, f.body);
    return { names, choices };
  }

  async function listPage(req: Request, res: Response, ctx: Ctx, message?: Flash) {
    const it = textsOf(ctx);
    const { lang } = ctx;
    const { values, bad } = listFilters(req.query);
    const listed = bad.length
      ? undefined
      : await kit.api('GET', `/invoice/?${qs({ ...values, limit: String(PAGE_SIZE) })}`, undefined, as(req, res, ctx), InvoicePage);
    const invoices = listed?.ok ? listed.body.invoices : [];
    const { names, choices } = await customersFor(
      req,
      res,
      ctx,
      invoices.map((i) => i.customer_id),
    );
    const selectedCustomer = values.customer_id ?? '';
    const option = (value: string, label: string, selected: string) =>
      `<option value="${esc(value)}"${value === selected ? ' selected' : ''}>${esc(label)}</option>`;
    const customerOptions = [
      option('', it.anyCustomer, selectedCustomer),
      ...choices.map((c) => option(String(c.id), customerName(c), selectedCustomer)),
      ...(selectedCustomer && !choices.some((c) => String(c.id) === selectedCustomer)
        ? [
            option(
              selectedCustomer,
              names.get(Number(selectedCustomer)) ? customerName(names.get(Number(selectedCustomer))!) : `#${selectedCustomer}`,
              selectedCustomer,
            ),
          ]
        : []),
    ].join('');
    const input = (name: string, label: string, type: string, extra = '') =>
      `<div class="field"><label for="f-${name}">${esc(label)}</label><input id="f-${name}" name="${name}" type="${type}" value="${esc(values[name] ?? '')}"${extra}></div>`;
    const select = (name: string, label: string, options: string) =>
      `<div class="field"><label for="f-${name}">${esc(label)}</label><select id="f-${name}" name="${name}">${options}</select></div>`;
    const more = ['customer_id', 'document_type', 'open', 'date_from', 'date_to', 'due_from', 'due_to', 'sort', 'overdue'];
    const moreOpen = more.some((k) => values[k] !== undefined);
    const filters = `<section class="card" aria-labelledby="filters-h"><h2 id="filters-h">${esc(it.filters)}</h2>
<form class="filters" method="get" action="/app/invoices" role="search"><div class="fgrid">
<div class="field wide2"><label for="f-search">${esc(it.search)}</label><input id="f-search" name="${SEARCH_PARAM}" type="search" maxlength="100" value="${esc(values[SEARCH_PARAM] ?? '')}" aria-describedby="search-hint"><p class="hint" id="search-hint">${esc(it.searchHint)}</p></div>
${select('status', it.statusLabel, [option('', it.anyStatus, values.status ?? ''), ...InvoiceStatus.options.map((s) => option(s, it.status[s] ?? s, values.status ?? ''))].join(''))}
</div>
<details${moreOpen ? ' open' : ''}><summary>${esc(it.moreFilters)}</summary><div class="fgrid">
${select('customer_id', it.customer, customerOptions)}
${select('document_type', it.documentType, [option('', it.anyType, values.document_type ?? ''), option('INVOICE', it.docType.INVOICE!, values.document_type ?? ''), option('CREDIT_NOTE', it.docType.CREDIT_NOTE!, values.document_type ?? '')].join(''))}
${select('open', it.openOnly, [option('', it.openAny, values.open ?? ''), option('true', it.openTrue, values.open ?? ''), option('false', it.openFalse, values.open ?? '')].join(''))}
${select('sort', it.sort, InvoiceSort.options.map((s) => option(s, it.sorts[s] ?? s, values.sort ?? '-created')).join(''))}
${input('date_from', it.dateFrom, 'date')}${input('date_to', it.dateTo, 'date')}${input('due_from', it.dueFrom, 'date')}${input('due_to', it.dueTo, 'date')}
<div class="field wide"><label class="check"><input type="checkbox" name="overdue" value="true"${values.overdue === 'true' ? ' checked' : ''}>${esc(it.overdueOnly)}</label></div>
</div></details>
<p class="actions"><button type="submit">${esc(it.apply)}</button> <a class="button secondary" href="/app/invoices">${esc(it.reset)}</a></p>
</form></section>`;

    let body: string;
    let status = 200;
    let msg = message;
    if (bad.length) {
      status = 400;
      msg = { kind: 'error', text: fill(it.badFilters, { fields: bad.map((b) => it.fields[b] ?? b).join(', ') }) };
      body = filters;
    } else if (listed && !listed.ok) {
      status = statusOf(listed);
      msg = { kind: 'error', text: refusal(kit, ctx, listed) };
      body = filters;
    } else {
      const p = listed!.body;
      const rows = invoices
        .map((inv) => {
          const c = names.get(inv.customer_id);
          const label = numberOf(it, inv);
          return `<tr>${td(it.number, `<a class="nowrap" href="/app/invoices/${inv.id}">${esc(label)}</a>${inv.document_type === 'CREDIT_NOTE' ? ` <span class="muted">(${esc(it.creditNote)})</span>` : ''}`)}${td(it.customer, esc(c ? customerName(c) : `#${inv.customer_id}`))}${td(it.statusLabel, statusBadge(it, inv))}${cell(it.invoiceDate, esc(day(lang, inv.invoice_date)), 'nowrap')}${cell(it.dueDate, esc(day(lang, inv.due_date)), 'nowrap')}<td class="num" data-label="${esc(it.total)}">${esc(money(lang, inv.gross_amount, inv.currency))}</td><td class="num" data-label="${esc(it.openAmount)}">${esc(money(lang, inv.open_amount, inv.currency))}</td></tr>`;
        })
        .join('\n');
      const filtered = Object.keys(values).some((k) => k !== 'page' && k !== 'sort');
      const pages = Math.max(1, Math.ceil(p.total / (p.limit || PAGE_SIZE)));
      const pageLink = (n: number, label: string, rel: string) =>
        `<li><a rel="${rel}" href="/app/invoices?${esc(qs({ ...values, page: String(n) }))}">${esc(label)}</a></li>`;
      const paging =
        pages > 1 || p.page > 1
          ? `<nav class="paging" aria-label="${esc(it.paging)}"><ul>${p.page > 1 ? pageLink(Math.min(p.page - 1, pages), it.prev, 'prev') : ''}<li class="muted">${esc(fill(it.pageOf, { page: String(p.page), pages: String(pages), total: String(p.total) }))}</li>${p.page < pages ? pageLink(p.page + 1, it.next, 'next') : ''}</ul></nav>`
          : '';
      body =
        filters +
        (invoices.length
          ? `<div class="table-wrap" tabindex="0"><table class="cards"><caption class="sr-only">${esc(it.invoices)}</caption><thead><tr><th scope="col">${esc(it.number)}</th><th scope="col">${esc(it.customer)}</th><th scope="col">${esc(it.statusLabel)}</th><th scope="col">${esc(it.date)}</th><th scope="col">${esc(it.dueDate)}</th><th scope="col" class="num">${esc(it.gross)}</th><th scope="col" class="num">${esc(it.openShort)}</th></tr></thead><tbody>${rows}</tbody></table></div>`
          : `<p class="muted">${esc(filtered ? it.noMatches : it.noInvoices)}</p>`) +
        paging;
    }
    kit.render(res, ctx, { status, title: it.invoices, current: 'invoices', body, message: msg });
  }

  router.get('/invoices', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (ctx) await listPage(req, res, ctx, await kit.takeFlash(req, res));
  });

  /** The 404 page of an invoice that does not exist or an id that cannot be one. */
  const notFound = (res: Response, ctx: Ctx) => {
    const it = textsOf(ctx);
    kit.render(res, ctx, {
      status: 404,
      title: it.invoice,
      current: 'invoices',
      body: `<p><a href="/app/invoices">${esc(it.backToList)}</a></p>`,
      message: { kind: 'error', text: it.notFound },
    });
  };

  router.get('/invoices/:id', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (!ctx) return;
    if (!validId(req.params.id)) return notFound(res, ctx);
    await detailPage(req, res, ctx, req.params.id, await kit.takeFlash(req, res));
  });

  async function detailPage(req: Request, res: Response, ctx: Ctx, id: string, message?: Flash) {
    const it = textsOf(ctx);
    const { lang } = ctx;
    const who = as(req, res, ctx);
    const path = `/invoice/${encodeURIComponent(id)}`;
    const found = await kit.api('GET', path, undefined, who, Invoice);
    if (!found.ok) {
      if (found.status === 404 || found.status === 400) return notFound(res, ctx);
      return kit.render(res, ctx, {
        status: statusOf(found),
        title: it.invoice,
        current: 'invoices',
        body: `<p><a href="/app/invoices">${esc(it.backToList)}</a></p>`,
        message: { kind: 'error', text: refusal(kit, ctx, found) },
      });
    }
    const inv = found.body;
    const finalized = inv.status !== 'DRAFT' && inv.status !== 'CANCELLED';
    const mayAudit = kit.may(ctx, 'GET', '/audit-log/');
    const [customer, payments, emails, reminders, attachments, credits, audit] = await Promise.all([
      kit.api('GET', `/customer/${encodeURIComponent(String(inv.customer_id))}`, undefined, who, CustomerName),
      finalized ? kit.api('GET', `${path}/payments?limit=100`, undefined, who, PaymentList) : undefined,
      kit.api('GET', `${path}/emails`, undefined, who, EmailList),
      finalized && inv.document_type === 'INVOICE' ? kit.api('GET', `${path}/reminders`, undefined, who, ReminderList) : undefined,
      kit.api('GET', `${path}/attachments`, undefined, who, AttachmentList),
      // the credit notes of this invoice: the customer's credit notes that name it as their preceding invoice
      inv.document_type === 'INVOICE' && finalized
        ? kit.api(
            'GET',
            `/invoice/?${qs({ document_type: 'CREDIT_NOTE', customer_id: String(inv.customer_id), limit: '100' })}`,
            undefined,
            who,
            InvoicePage,
          )
        : undefined,
      mayAudit
        ? kit.api(
            'GET',
            `/audit-log/?${qs({ resource_type: 'invoice', resource_id: String(inv.id), limit: '50' })}`,
            undefined,
            who,
            AuditLogPage,
          )
        : undefined,
    ]);
    const paymentRows = payments?.ok ? payments.body.payments : [];
    const emailRows = emails.ok ? emails.body.emails : [];
    const reminderRows = reminders?.ok ? reminders.body.reminders : [];
    const attachmentRows = attachments.ok ? attachments.body.attachments : [];
    const creditRows = credits?.ok ? credits.body.invoices.filter((c) => c.preceding_invoice_id === inv.id) : [];
    const auditRows = audit?.ok ? audit.body.entries : [];
    const title = `${it.docType[inv.document_type] ?? it.invoice} ${numberOf(it, inv)}`;
    const base = `/app/invoices/${inv.id}`;

    // facts
    const facts: [string, string][] = [
      [it.statusLabel, statusBadge(it, inv)],
      [
        it.customer,
        customer.ok
          ? `<a href="/app/customers/${inv.customer_id}">${esc(customerName(customer.body))}</a>`
          : `<a href="/app/customers/${inv.customer_id}">#${esc(inv.customer_id)}</a>`,
      ],
      [it.invoiceDate, esc(day(lang, inv.invoice_date))],
      [it.dueDate, esc(day(lang, inv.due_date))],
      ...(inv.benefit_period_start || inv.benefit_period_end
        ? [[it.servicePeriod, esc(`${day(lang, inv.benefit_period_start)} – ${day(lang, inv.benefit_period_end)}`)] as [string, string]]
        : []),
      [it.format, esc(inv.invoice_format)],
      ...(inv.buyer_reference ? [[it.buyerReference, esc(inv.buyer_reference)] as [string, string]] : []),
      ...(inv.preceding_invoice_id
        ? [
            [it.precedingInvoice, `<a href="/app/invoices/${inv.preceding_invoice_id}">#${esc(inv.preceding_invoice_id)}</a>`] as [
              string,
              string,
            ],
          ]
        : []),
      ...(inv.note ? [[it.note, esc(inv.note)] as [string, string]] : []),
      [it.total, esc(money(lang, inv.gross_amount, inv.currency))],
      [it.openAmount, esc(money(lang, inv.open_amount, inv.currency))],
    ];
    const overview = `<section class="card" aria-labelledby="overview-h"><h2 id="overview-h">${esc(it.overview)}</h2><dl class="inv-facts">${facts.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join('')}</dl></section>`;

    // actions and documents, as the role and the status allow
    const api = `/invoice/${inv.id}`;
    const actionLinks = [
      inv.status === 'DRAFT' && kit.may(ctx, 'POST', `${api}/job`)
        ? `<a class="button" href="${base}/finalize">${esc(it.finalize)}</a>`
        : '',
      finalized && kit.may(ctx, 'POST', `${api}/send_email`)
        ? `<a class="button secondary" href="${base}/send">${esc(it.sendEmail)}</a>`
        : '',
      (inv.status === 'OPEN' || inv.status === 'SENT') && (inv.open_amount ?? 0) > 0 && kit.may(ctx, 'POST', `${api}/payments`)
        ? `<a class="button secondary" href="${base}/payment">${esc(it.recordPayment)}</a>`
        : '',
      finalized && inv.document_type === 'INVOICE' && kit.may(ctx, 'POST', `${api}/credit-note`)
        ? `<a class="button secondary" href="${base}/credit-note">${esc(it.createCreditNote)}</a>`
        : '',
      inv.status === 'DRAFT' && kit.may(ctx, 'POST', `${api}/cancel`)
        ? `<a class="button secondary" href="${base}/cancel">${esc(it.cancelInvoice)}</a>`
        : '',
    ].filter(Boolean);
    const docLinks = finalized
      ? [
          `<a class="button secondary" href="${base}/pdf">${esc(it.downloadPdf)}</a>`,
          inv.invoice_format !== 'PDF' ? `<a class="button secondary" href="${base}/xml">${esc(it.downloadXml)}</a>` : '',
        ]
      : inv.status === 'DRAFT'
        ? [`<a class="button secondary" href="${base}/preview">${esc(it.preview)}</a>`]
        : [];
    const actions =
      actionLinks.length || docLinks.filter(Boolean).length
        ? `<section class="card" aria-labelledby="actions-h"><h2 id="actions-h">${esc(actionLinks.length ? it.actions : it.documents)}</h2><div class="row-actions">${[...actionLinks, ...docLinks].filter(Boolean).join('')}</div></section>`
        : '';

    // positions
    const positions = inv.positions ?? [];
    const posRows = positions
      .map(
        (p, i) =>
          `<tr>${td(it.pos, esc(i + 1))}${cell(it.item, `<span>${esc(p.title)}</span>${p.description ? `<span class="muted">${esc(p.description)}</span>` : ''}`, 'stack')}${cell(it.quantity, `${esc(num(lang, p.quantity))} ${esc(p.unit_id)}`, 'nowrap')}<td class="num" data-label="${esc(it.unitPrice)}">${esc(money(lang, p.unit_net_amount, inv.currency))}</td>${td(it.vatRate, esc(rate(lang, p.tax_rate)))}${td(it.discount, p.discount_type && p.discount_value ? esc(p.discount_type === 'PERCENTAGE' ? `${num(lang, p.discount_value, 2)} %` : money(lang, p.discount_value, inv.currency)) : '')}<td class="num" data-label="${esc(it.net)}">${esc(money(lang, p.net_amount_after_discount ?? p.single_net_amount, inv.currency))}</td></tr>`,
      )
      .join('\n');
    const positionsHtml = `<section class="block" aria-labelledby="positions-h"><h2 id="positions-h">${esc(it.positions)}</h2>${
      positions.length
        ? `<div class="table-wrap" tabindex="0"><table class="cards"><caption class="sr-only">${esc(it.positions)}</caption><thead><tr><th scope="col">${esc(it.pos)}</th><th scope="col">${esc(it.item)}</th><th scope="col">${esc(it.quantity)}</th><th scope="col" class="num">${esc(it.unitPrice)}</th><th scope="col">${esc(it.vatRate)}</th><th scope="col">${esc(it.discount)}</th><th scope="col" class="num">${esc(it.net)}</th></tr></thead><tbody>${posRows}</tbody></table></div>`
        : `<p class="muted">${esc(it.noPositions)}</p>`
    }</section>`;

    // totals per VAT rate, then the invoice's totals and what is open
    const vatRows = inv.vat_breakdown
      .map(
        (v) =>
          `<tr>${td(it.vatRate, `${esc(rate(lang, v.tax_rate))} <span class="muted">(${esc(v.vat_category)})</span>`)}<td class="num" data-label="${esc(it.net)}">${esc(money(lang, v.net_amount, inv.currency))}</td><td class="num" data-label="${esc(it.vat)}">${esc(money(lang, v.tax_amount, inv.currency))}</td><td class="num" data-label="${esc(it.gross)}">${esc(money(lang, addMoney(v.net_amount, v.tax_amount), inv.currency))}</td></tr>`,
      )
      .join('');
    const sumRow = `<tr>${td(it.vatRate, esc(it.sum))}<td class="num" data-label="${esc(it.net)}">${esc(money(lang, inv.net_amount, inv.currency))}</td><td class="num" data-label="${esc(it.vat)}">${esc(money(lang, inv.tax_amount, inv.currency))}</td><td class="num" data-label="${esc(it.gross)}">${esc(money(lang, inv.gross_amount, inv.currency))}</td></tr>`;
    const settled: [string, number | null][] = [
      [it.paidAmount, inv.paid_amount],
      ...(inv.skonto_amount ? [[it.skontoAmount, inv.skonto_amount] as [string, number]] : []),
      ...(inv.credited_amount ? [[it.creditedAmount, inv.credited_amount] as [string, number]] : []),
      [it.openAmount, inv.open_amount],
    ];
    const totalsHtml = `<section class="block" aria-labelledby="totals-h"><h2 id="totals-h">${esc(it.totals)}</h2><div class="table-wrap" tabindex="0"><table class="cards"><caption class="sr-only">${esc(it.totals)}</caption><thead><tr><th scope="col">${esc(it.vatRate)}</th><th scope="col" class="num">${esc(it.net)}</th><th scope="col" class="num">${esc(it.vat)}</th><th scope="col" class="num">${esc(it.gross)}</th></tr></thead><tbody>${vatRows}</tbody><tfoot>${sumRow}</tfoot></table></div>
${finalized ? `<dl class="inv-facts card">${settled.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(money(lang, v, inv.currency))}</dd>`).join('')}</dl>` : ''}</section>`;

    const table = (id: string, heading: string, empty: string, head: string[], rows: string[]) =>
      `<section class="block" aria-labelledby="${id}-h"><h2 id="${id}-h">${esc(heading)}</h2>${
        rows.length
          ? `<div class="table-wrap" tabindex="0"><table class="cards"><caption class="sr-only">${esc(heading)}</caption><thead><tr>${head.map((h) => `<th scope="col">${h}</th>`).join('')}</tr></thead><tbody>${rows.join('\n')}</tbody></table></div>`
          : `<p class="muted">${esc(empty)}</p>`
      }</section>`;

    const paymentsHtml = finalized
      ? table(
          'payments',
          it.payments,
          it.noPayments,
          [it.date, it.amount, it.method, it.reference, it.source].map(esc),
          paymentRows.map(
            (p) =>
              `<tr>${td(it.date, esc(day(lang, p.date)))}${td(it.amount, `${esc(money(lang, p.amount, inv.currency))}${p.discount ? ` <span class="muted">(+ ${esc(it.skontoAmount)} ${esc(money(lang, p.discount, inv.currency))})</span>` : ''}${p.reversed_at ? ` <span class="badge bad">${esc(it.reversed)}</span>` : ''}`)}${td(it.method, esc(p.method ? (it.methods[p.method] ?? p.method) : '–'))}${td(it.reference, esc(p.reference ?? ''))}${td(it.source, esc(it.sources[p.source] ?? p.source))}</tr>`,
          ),
        )
      : '';
    const emailsHtml = table(
      'emails',
      it.emails,
      it.noEmails,
      [it.date, it.to, it.subject, it.statusLabel].map(esc),
      emailRows.map(
        (e) =>
          `<tr>${td(it.date, esc(when(lang, e.sent_at ?? e.created_at)))}${td(it.to, esc([...e.to, ...e.cc].join(', ')))}${td(it.subject, esc(e.subject))}${td(it.statusLabel, `<span class="badge${e.status === 'sent' ? '' : e.status === 'failed' ? ' bad' : ' off'}">${esc(it.emailStatus[e.status] ?? e.status)}</span>${e.error ? `<br><span class="muted">${esc(e.error)}</span>` : ''}`)}</tr>`,
      ),
    );
    const remindersHtml =
      finalized && inv.document_type === 'INVOICE'
        ? table(
            'reminders',
            it.reminders,
            it.noReminders,
            [it.date, it.level, it.fees, it.interest, it.total, it.payBy, `<span class="sr-only">${esc(it.reminderPdf)}</span>`],
            reminderRows.map(
              (r) =>
                `<tr>${td(it.date, esc(day(lang, r.date)))}${td(it.level, esc(fill(it.levelN, { level: String(r.level) })))}${td(it.fees, esc(money(lang, r.fees, inv.currency)))}${td(it.interest, esc(money(lang, r.interest, inv.currency)))}${td(it.total, esc(money(lang, r.total, inv.currency)))}${td(it.payBy, esc(day(lang, r.pay_by)))}${td(it.reminderPdf, `<a href="${base}/reminders/${esc(r.id)}/pdf" aria-label="${esc(fill(it.reminderPdfOf, { level: String(r.level) }))}">${esc(it.reminderPdf)}</a>`)}</tr>`,
            ),
          )
        : '';
    const creditsHtml =
      inv.document_type === 'INVOICE' && finalized
        ? table(
            'credits',
            it.creditNotes,
            it.noCreditNotes,
            [it.number, it.statusLabel, it.invoiceDate, it.gross].map(esc),
            creditRows.map(
              (c) =>
                `<tr>${td(it.number, `<a href="/app/invoices/${c.id}">${esc(numberOf(it, c))}</a>`)}${td(it.statusLabel, statusBadge(it, c))}${td(it.invoiceDate, esc(day(lang, c.invoice_date)))}${td(it.gross, esc(money(lang, c.gross_amount, c.currency)))}</tr>`,
            ),
          )
        : '';
    const attachmentsHtml = table(
      'attachments',
      it.attachments,
      it.noAttachments,
      [it.file, it.description, it.size].map(esc),
      attachmentRows.map(
        (a) =>
          `<tr>${cell(it.file, `<a class="file" href="${base}/attachments/${esc(a.id)}" aria-label="${esc(fill(it.downloadOf, { name: a.filename }))}">${esc(a.filename)}</a>`, 'stack')}${td(it.description, esc(a.description ?? ''))}${td(it.size, esc(bytes(lang, a.size)))}</tr>`,
      ),
    );

    const timelineHtml = timeline(it, lang, inv, {
      payments: paymentRows,
      emails: emailRows,
      reminders: reminderRows,
      credits: creditRows,
      attachments: attachmentRows,
    });
    const auditHtml =
      audit?.ok && auditRows.length
        ? table(
            'audit',
            it.auditLog,
            '',
            [it.date, it.auditAction, it.auditFields, it.auditWho].map(esc),
            auditRows.map(
              (e) =>
                `<tr>${td(it.date, esc(when(lang, e.at)))}${td(it.auditAction, `<code>${esc(e.action)}</code>`)}${td(it.auditFields, esc(e.fields.join(', ')))}${td(it.auditWho, esc(e.actor.key_name ? fill(it.apiKey, { name: e.actor.key_name }) : e.actor.role ? fill(it.memberRole, { role: ctx.t.roles[e.actor.role] ?? e.actor.role }) : '–'))}</tr>`,
            ),
          )
        : '';

    kit.render(res, ctx, {
      title,
      current: 'invoices',
      message,
      body: `${overview}${actions}${positionsHtml}${totalsHtml}${paymentsHtml}${emailsHtml}${remindersHtml}${creditsHtml}${attachmentsHtml}${timelineHtml}${auditHtml}
<p><a href="/app/invoices">${esc(it.backToList)}</a></p>`,
    });
  }

  /**
   * Downloads. The API answers a document with a short-lived presigned link ({url, filename, expires_in}); the browser
   * is sent there (the object store's public address). A draft's preview is a PDF the API answers itself: streamed.
   */
  const download = (route: string, apiPath: (id: string, sub: string) => string, sub?: RegExp) =>
    router.get(route, async (req: Request<Record<string, string>>, res) => {
      const ctx = await kit.signedIn(req, res, false);
      if (!ctx) return;
      const id = req.params.id;
      const subId = req.params.sub ?? '';
      if (!validId(id) || (sub && !sub.test(subId))) return notFound(res, ctx);
      const link = await kit.api('GET', apiPath(encodeURIComponent(id), encodeURIComponent(subId)), undefined, as(req, res, ctx), Link);
      if (!link.ok) return kit.redirectWith(req, res, `/app/invoices/${id}`, { kind: 'error', text: refusal(kit, ctx, link) });
      if (!/^https?:\/\//i.test(link.body.url)) {
        kit.deps.logger.warn({ path: route }, 'web app: a download link that is not http(s)');
        return kit.render(res, ctx, {
          status: 502,
          title: textsOf(ctx).invoice,
          current: 'invoices',
          body: '',
          message: { kind: 'error', text: kit.problem(ctx, { ok: false, status: 502, body: {} }) },
        });
      }
      res.setHeader('cache-control', 'no-store');
      res.redirect(303, link.body.url);
    });
  download('/invoices/:id/pdf', (id) => `/invoice/${id}/pdf-link`);
  download('/invoices/:id/xml', (id) => `/invoice/${id}/xml-link`);
  download('/invoices/:id/reminders/:sub/pdf', (id, rid) => `/invoice/${id}/reminders/${rid}/pdf`, /^[1-9]\d{0,9}$/);
  download('/invoices/:id/attachments/:sub', (id, aid) => `/invoice/${id}/attachments/${aid}`, /^[1-9]\d{0,9}$/);

  router.get('/invoices/:id/preview', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (!ctx) return;
    const id = req.params.id;
    if (!validId(id)) return notFound(res, ctx);
    const answer = await kit.raw('GET', `/invoice/${encodeURIComponent(id)}/preview`, as(req, res, ctx)).catch(() => undefined);
    if (!answer || !answer.ok) {
      let body: Record<string, unknown> = {};
      try {
        body = answer ? ((await answer.json()) as Record<string, unknown>) : { code: 'SERVICE_UNAVAILABLE' };
      } catch {
        body = {};
      }
      const status = answer?.status ?? 503;
      return kit.redirectWith(req, res, `/app/invoices/${id}`, { kind: 'error', text: refusal(kit, ctx, { ok: false, status, body }) });
    }
    const type = answer.headers.get('content-type') ?? 'application/pdf';
    res
      .status(200)
      .type(type.startsWith('application/pdf') ? 'application/pdf' : 'application/octet-stream')
      .setHeader('content-disposition', `attachment; filename="preview-${id}.pdf"`)
      .setHeader('cache-control', 'no-store')
      .send(Buffer.from(await answer.arrayBuffer()));
  });

  registerInvoiceActions(router, kit, { notFound });
}

type Sub = {
  payments: z.output<typeof PaymentList>['payments'];
  emails: z.output<typeof EmailRecord>[];
  reminders: z.output<typeof Reminder>[];
  credits: InvoiceView[];
  attachments: z.output<typeof Attachment>[];
};

/** What happened to the invoice, newest first: from its own timestamps and the records the API lists for it. */
export function timeline(it: InvoiceTexts, lang: Ctx['lang'], inv: InvoiceView, sub: Sub): string {
  const events: { at: string; text: string; dayOnly?: boolean }[] = [{ at: inv.created_at, text: it.ev.created }];
  if (inv.finalized_at) events.push({ at: inv.finalized_at, text: it.ev.finalized });
  if (inv.cancelled_at) events.push({ at: inv.cancelled_at, text: it.ev.cancelled });
  if (inv.status === 'PAID' && inv.paid_date) events.push({ at: inv.paid_date, text: it.ev.paid, dayOnly: true });
  for (const a of sub.attachments) events.push({ at: a.created_at, text: fill(it.ev.attachment, { name: a.filename }) });
  for (const e of sub.emails) {
    const to = e.to.join(', ');
    const text = e.status === 'sent' ? it.ev.emailSent : e.status === 'failed' ? it.ev.emailFailed : it.ev.emailQueued;
    events.push({ at: e.sent_at ?? e.created_at, text: fill(text, { to }) });
  }
  for (const p of sub.payments) {
    events.push({ at: p.date, text: fill(it.ev.payment, { amount: money(lang, p.amount, inv.currency) }), dayOnly: true });
    if (p.reversed_at)
      events.push({ at: p.reversed_at, text: fill(it.ev.paymentReversed, { amount: money(lang, p.amount, inv.currency) }) });
  }
  for (const r of sub.reminders)
    events.push({ at: r.created_at, text: fill(it.ev.reminder, { level: String(r.level), total: money(lang, r.total, inv.currency) }) });
  for (const c of sub.credits) events.push({ at: c.created_at, text: fill(it.ev.creditNote, { number: numberOf(it, c) }) });
  // a day sorts as the start of that day
  const key = (e: { at: string }) => (e.at.length === 10 ? `${e.at}T00:00:00.000Z` : e.at);
  events.sort((a, b) => (key(a) < key(b) ? 1 : key(a) > key(b) ? -1 : 0));
  const items = events
    .map((e) => `<li><time datetime="${esc(e.at)}">${esc(e.dayOnly ? day(lang, e.at) : when(lang, e.at))}</time>${esc(e.text)}</li>`)
    .join('');
  return `<section class="card" aria-labelledby="timeline-h"><h2 id="timeline-h">${esc(it.timeline)}</h2><ol class="timeline">${items}</ol></section>`;
}
