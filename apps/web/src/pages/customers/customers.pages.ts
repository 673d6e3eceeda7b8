import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import { Customer, FinancialOverview, Statement, VatCheck } from '@inv/contracts';
import { esc, fill } from '../../kit/html';
import { td, type Ctx, type PagesKit } from '../../kit/pages-kit';
import type { Flash } from '../../kit/sessions';
import { texts } from './texts';
import { csrfField, day, ISO_DAY, listOf, money, NUMERIC_ID, pageOf, pager, queryOf, sendDownload, when } from './shared';

/** GET /customer/{id}/vat-check: the check as it stands, and whether a new one was asked for. */
const VatCheckAnswer = VatCheck.extend({ check_requested: z.boolean() });
/** The part of an invoice list entry (GET /invoice/?customer_id=) the customer page shows. */
const InvoiceRow = z.object({
  id: z.number().int(),
  invoice_number: z.string(),
  document_type: z.enum(['INVOICE', 'CREDIT_NOTE']),
  status: z.string(),
  invoice_date: z.string().nullable(),
  due_date: z.string().nullable(),
  gross_amount: z.number().nullable(),
  open_amount: z.number().nullable(),
});
const InvoiceRows = z.object({ invoices: z.array(InvoiceRow), total: z.number().int(), page: z.number().int(), limit: z.number().int() });

type CustomerView = z.output<typeof Customer>;
const LIMIT = 25;
const INVOICE_LIMIT = 10;

export const customerName = (c: Pick<CustomerView, 'organization_name' | 'first_name' | 'last_name' | 'customer_number'>) =>
  c.organization_name || [c.first_name, c.last_name].filter(Boolean).join(' ') || `#${c.customer_number}`;

/**
 * Customers in the dashboard: the list (search, type and status filters, the API's paging), a customer's page
 * (master data, addresses, the VAT ID and its VIES check with a "check now" button, the account overview, the
 * invoices linking to the invoice pages) and the account statement for a period with its PDF.
 */
export function registerCustomerPages(router: Router, kit: PagesKit): void {
  const show = (res: Response, ctx: Ctx, o: { title: string; body: string; status?: number; message?: Flash }) =>
    kit.render(res, ctx, { ...o, current: 'customers' });
  const notFound = (res: Response, ctx: Ctx) =>
    show(res, ctx, {
      status: 404,
      title: texts[ctx.lang].customer,
      body: `<p><a href="/app/customers">${esc(texts[ctx.lang].back)}</a></p>`,
      message: { kind: 'error', text: texts[ctx.lang].notFound },
    });
  const badge = (kind: '' | 'off' | 'bad', text: string) => `<span class="badge${kind ? ` ${kind}` : ''}">${esc(text)}</span>`;

  router.get('/customers', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (!ctx) return;
    const t = texts[ctx.lang];
    const q = queryOf(req, 'q', 200);
    const email = queryOf(req, 'email', 254);
    const type = queryOf(req, 'contact_type');
    const active = queryOf(req, 'is_active');
    const page = pageOf(req);
    const params = new URLSearchParams();
    if (q) params.set('q', q);
    if (email) params.set('email', email);
    if (type === 'B2B' || type === 'B2C') params.set('contact_type', type);
    if (active === 'true' || active === 'false') params.set('is_active', active);
    const api = new URLSearchParams(params);
    api.set('page', String(page));
    api.set('limit', String(LIMIT));
    const listed = await listOf(kit, `/customer/?${api.toString()}`, kit.asMember(req, res, ctx.s), Customer);
    const opt = (v: string, label: string, cur: string) =>
      `<option value="${esc(v)}"${v === cur ? ' selected' : ''}>${esc(label)}</option>`;
    const filters = `<form class="card filters" method="get" action="/app/customers" role="search">
<div class="filter-grid"><div><label for="f-q">${esc(t.search)}</label><input id="f-q" name="q" type="search" maxlength="200" value="${esc(q)}"></div>
<div><label for="f-email">${esc(t.email)}</label><input id="f-email" name="email" type="email" maxlength="254" value="${esc(email)}"></div>
<div><label for="f-type">${esc(t.contactType)}</label><select id="f-type" name="contact_type">${opt('', t.anyType, type)}${opt('B2B', t.contactTypes.B2B!, type)}${opt('B2C', t.contactTypes.B2C!, type)}</select></div>
<div><label for="f-active">${esc(t.activeFilter)}</label><select id="f-active" name="is_active">${opt('', t.anyStatus, active)}${opt('true', t.active, active)}${opt('false', t.inactive, active)}</select></div></div>
<p class="actions"><button type="submit">${esc(t.filter)}</button><a href="/app/customers">${esc(t.reset)}</a></p></form>`;
    if (!listed.ok)
      return show(res, ctx, {
        status: listed.status >= 500 ? 502 : listed.status,
        title: t.customers,
        body: filters,
        message: { kind: 'error', text: kit.problem(ctx, listed) },
      });
    const vatBadge = (st: string) => badge(st === 'valid' ? '' : st === 'invalid' ? 'bad' : 'off', t.vatStatus[st] ?? st);
    const rows = listed.items
      .filter((c) => NUMERIC_ID.test(String(c.id)))
      .map(
        (c) =>
          `<tr>${td(t.number, esc(c.customer_number))}${td(t.name, `<a class="long" href="/app/customers/${c.id}">${esc(customerName(c))}</a>`)}` +
          `${td(t.contactType, esc(t.contactTypes[c.contact_type] ?? c.contact_type))}${td(t.email, `<span class="long">${esc(c.email ?? '')}</span>`)}` +
          `${td(t.vatId, c.vat_id ? `${esc(c.vat_id)} ${vatBadge(c.vat_check.status)}` : '')}${td(t.status, c.is_active ? badge('', t.active) : badge('off', t.inactive))}</tr>`,
      )
      .join('\n');
    const table = listed.items.length
      ? `<div class="table-wrap" tabindex="0"><table class="cards"><caption class="sr-only">${esc(t.customers)}</caption><thead><tr><th scope="col">${esc(t.number)}</th><th scope="col">${esc(t.name)}</th><th scope="col">${esc(t.contactType)}</th><th scope="col">${esc(t.email)}</th><th scope="col">${esc(t.vatId)}</th><th scope="col">${esc(t.status)}</th></tr></thead><tbody>${rows}</tbody></table></div>`
      : `<p class="muted">${esc(t.noCustomers)}</p>`;
    show(res, ctx, {
      title: t.customers,
      message: await kit.takeFlash(req, res),
      body: `${filters}${table}${pager({ base: '/app/customers', params, page, limit: LIMIT, total: listed.total, labels: { prev: t.prev, next: t.next, of: t.pageOf, nav: t.paging } })}`,
    });
  });

  async function customerPage(req: Request, res: Response, ctx: Ctx, id: string, status = 200, message?: Flash) {
    const t = texts[ctx.lang];
    const lang = ctx.lang;
    const as = kit.asMember(req, res, ctx.s);
    const found = await kit.api('GET', `/customer/${encodeURIComponent(id)}`, undefined, as, Customer);
    if (!found.ok && found.status === 404) return notFound(res, ctx);
    if (!found.ok)
      return show(res, ctx, {
        status: found.status >= 500 ? 502 : found.status,
        title: t.customer,
        body: `<p><a href="/app/customers">${esc(t.back)}</a></p>`,
        message: { kind: 'error', text: kit.problem(ctx, found) },
      });
    const c = found.body;
    const ipage = pageOf(req, 'ipage');
    const [overview, invoices] = await Promise.all([
      kit.api('GET', `/customer/${encodeURIComponent(id)}/financial-overview`, undefined, as, FinancialOverview),
      kit.api('GET', `/invoice/?customer_id=${encodeURIComponent(id)}&page=${ipage}&limit=${INVOICE_LIMIT}`, undefined, as, InvoiceRows),
    ]);
    const dl = (pairs: [string, string][]) =>
      `<dl class="facts">${pairs
        .filter(([, v]) => v !== '')
        .map(([k, v]) => `<div><dt>${esc(k)}</dt><dd>${v}</dd></div>`)
        .join('')}</dl>`;
    const master = `<section class="card" aria-labelledby="master-h"><h2 id="master-h">${esc(t.master)}</h2>${dl([
      [t.customerNumber, esc(c.customer_number)],
      [t.contactType, esc(t.contactTypes[c.contact_type] ?? c.contact_type)],
      [t.status, c.is_active ? badge('', t.active) : badge('off', t.inactive)],
      [t.email, c.email ? `<a href="mailto:${esc(c.email)}">${esc(c.email)}</a>` : ''],
      [t.phone, esc(c.phone ?? '')],
      [t.language, c.language ? esc(t.languages[c.language] ?? c.language) : ''],
      [t.buyerReference, esc(c.buyer_reference ?? '')],
      [t.peppolId, c.peppol_id ? `<code>${esc(c.peppol_id)}</code>` : ''],
    ])}</section>`;

    const v = c.vat_check;
    const canCheck = kit.may(ctx, 'PUT', `/customer/${id}`);
    const vatStatus = badge(v.status === 'valid' ? '' : v.status === 'invalid' ? 'bad' : 'off', t.vatStatus[v.status] ?? v.status);
    const vat = `<section class="card" aria-labelledby="vat-h"><h2 id="vat-h">${esc(t.vatCheck)}</h2>${
      c.vat_id
        ? `${dl([
            [t.vatId, `<code>${esc(c.vat_id)}</code> ${vatStatus}`],
            [t.checkedAt, when(lang, v.checked_at)],
            [t.requestDate, day(lang, v.request_date)],
            [t.registeredName, esc(v.name ?? '')],
            [t.registeredAddress, esc(v.address ?? '')],
            [t.consultationNumber, v.consultation_number ? `<code>${esc(v.consultation_number)}</code>` : ''],
            [t.fault, v.fault ? `<code>${esc(v.fault)}</code>` : ''],
          ])}${v.reason === 'checksum' ? `<p>${esc(t.reasonChecksum)}</p>` : v.reason === 'outside_eu' ? `<p class="muted">${esc(t.reasonOutsideEu)}</p>` : ''}${
            canCheck
              ? `<form method="post" action="/app/customers/${esc(id)}/vat-check">${csrfField(ctx)}<button type="submit" class="secondary">${esc(t.checkVat)}</button></form>`
              : ''
          }`
        : `<p class="muted">${esc(t.noVatId)}</p>`
    }</section>`;

    const o = overview.ok ? overview.body : undefined;
    const count = (n: number) => `<span class="muted">${esc(fill(t.documents, { count: String(n) }))}</span>`;
    const money2 = (n: number) => money(lang, n, 'EUR');
    const overviewCard = `<section class="card" aria-labelledby="overview-h"><h2 id="overview-h">${esc(t.overview)}</h2>${
      o
        ? dl([
            [t.outstanding, `${money2(o.outstanding.total)} ${count(o.outstanding.count)}`],
            [t.overdue, `${money2(o.overdue.total)} ${count(o.overdue.count)}`],
            [t.paid, `${money2(o.paid.total)} ${count(o.paid.count)}`],
            [t.creditNotes, `${money2(o.credit_notes.total)} ${count(o.credit_notes.count)}`],
            [t.balance, `<strong>${money2(o.balance)}</strong>`],
          ])
        : `<p class="muted">${esc(t.unavailable)}</p>`
    }<p class="actions"><a class="button secondary" href="/app/customers/${esc(id)}/statement">${esc(t.statement)}</a></p></section>`;

    const addresses = c.addresses ?? [];
    const addressRows = addresses
      .map(
        (a) =>
          `<tr>${td(t.type, `${esc(t.addressType[a.type] ?? a.type)}${a.is_default ? ` ${badge('off', t.standard)}` : ''}`)}${td(
            t.address,
            [a.address_line_1, a.address_line_2, [a.postal_code, a.city].filter(Boolean).join(' '), a.state_province, a.country_code]
              .filter(Boolean)
              .map((l) => esc(l))
              .join('<br>'),
          )}</tr>`,
      )
      .join('');
    const addressCard = `<section class="block" aria-labelledby="addr-h"><h2 id="addr-h">${esc(t.addresses)}</h2>${
      addresses.length
        ? `<div class="table-wrap" tabindex="0"><table class="cards"><caption class="sr-only">${esc(t.addresses)}</caption><thead><tr><th scope="col">${esc(t.type)}</th><th scope="col">${esc(t.address)}</th></tr></thead><tbody>${addressRows}</tbody></table></div>`
        : `<p class="muted">${esc(t.noAddresses)}</p>`
    }</section>`;

    const inv = invoices.ok ? invoices.body : undefined;
    const invoiceRows = (inv?.invoices ?? [])
      .filter((i) => NUMERIC_ID.test(String(i.id)))
      .map(
        (i) =>
          `<tr>${td(t.invoiceNumber, `<a href="/app/invoices/${i.id}">${esc(i.invoice_number || t.draft)}</a> <span class="muted">${esc(t.documentType[i.document_type] ?? '')}</span>`)}` +
          `${td(t.invoiceDate, day(lang, i.invoice_date))}${td(t.dueDate, day(lang, i.due_date))}${td(t.gross, money(lang, i.gross_amount))}` +
          `${td(t.openAmount, money(lang, i.open_amount))}${td(t.status, badge(i.status === 'PAID' ? '' : i.status === 'CANCELLED' || i.status === 'DRAFT' ? 'off' : 'bad', t.invoiceStatus[i.status] ?? i.status))}</tr>`,
      )
      .join('');
    const invoicePager = inv
      ? pager({
          base: `/app/customers/${id}`,
          params: new URLSearchParams(),
          param: 'ipage',
          page: ipage,
          limit: INVOICE_LIMIT,
          total: inv.total,
          labels: { prev: t.prev, next: t.next, of: t.pageOf, nav: t.paging },
        })
      : '';
    const invoiceCard = `<section class="block" aria-labelledby="inv-h"><h2 id="inv-h">${esc(t.invoices)}</h2>${
      !inv
        ? `<p class="muted">${esc(t.unavailable)}</p>`
        : inv.invoices.length
          ? `<div class="table-wrap" tabindex="0"><table class="cards"><caption class="sr-only">${esc(t.invoices)}</caption><thead><tr><th scope="col">${esc(t.invoiceNumber)}</th><th scope="col">${esc(t.invoiceDate)}</th><th scope="col">${esc(t.dueDate)}</th><th scope="col">${esc(t.gross)}</th><th scope="col">${esc(t.openAmount)}</th><th scope="col">${esc(t.status)}</th></tr></thead><tbody>${invoiceRows}</tbody></table></div>${invoicePager}`
          : `<p class="muted">${esc(t.noInvoices)}</p>`
    }</section>`;

    show(res, ctx, {
      status,
      title: customerName(c),
      message,
      body: `<p><a href="/app/customers">${esc(t.back)}</a></p><div class="two-col">${master}${vat}</div>${overviewCard}${addressCard}${invoiceCard}`,
    });
  }

  router.get('/customers/:id', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (!ctx) return;
    if (!NUMERIC_ID.test(req.params.id)) return notFound(res, ctx);
    await customerPage(req, res, ctx, req.params.id, 200, await kit.takeFlash(req, res));
  });

  /**
   * "Check VAT ID now": GET /customer/{id}/vat-check asks VIES again (the cache bypassed). The API lets every role
   * read it; the dashboard offers the button to those who may change the customer (a viewer acts on nothing).
   */
  router.post('/customers/:id/vat-check', async (req, res) => {
    const ctx = await kit.signedIn(req, res, true);
    if (!ctx) return;
    const t = texts[ctx.lang];
    if (!NUMERIC_ID.test(req.params.id)) return notFound(res, ctx);
    const id = req.params.id;
    if (!kit.may(ctx, 'PUT', `/customer/${id}`)) return kit.refuse(res, ctx, { title: t.customer, current: 'customers' });
    const answer = await kit.api(
      'GET',
      `/customer/${encodeURIComponent(id)}/vat-check`,
      undefined,
      kit.asMember(req, res, ctx.s),
      VatCheckAnswer,
    );
    if (!answer.ok)
      return customerPage(req, res, ctx, id, answer.status >= 500 ? 502 : answer.status, { kind: 'error', text: kit.problem(ctx, answer) });
    await kit.redirectWith(req, res, `/app/customers/${id}`, {
      kind: 'ok',
      text: answer.body.check_requested ? t.vatCheckRequested : t.vatCheckNotRequested,
    });
  });

  /** The period of a statement from the query (both optional, YYYY-MM-DD, from not after to), or undefined when malformed. */
  const periodOf = (req: Request) => {
    const from = queryOf(req, 'from', 10);
    const to = queryOf(req, 'to', 10);
    if ((from && !ISO_DAY.test(from)) || (to && !ISO_DAY.test(to)) || (from && to && from > to)) return undefined;
    const p = new URLSearchParams();
    if (from) p.set('from', from);
    if (to) p.set('to', to);
    return { from, to, params: p };
  };

  router.get('/customers/:id/statement', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (!ctx) return;
    if (!NUMERIC_ID.test(req.params.id)) return notFound(res, ctx);
    const t = texts[ctx.lang];
    const lang = ctx.lang;
    const id = req.params.id;
    const as = kit.asMember(req, res, ctx.s);
    const found = await kit.api('GET', `/customer/${encodeURIComponent(id)}`, undefined, as, Customer);
    if (!found.ok && found.status === 404) return notFound(res, ctx);
    const name = found.ok ? customerName(found.body) : `#${id}`;
    const period = periodOf(req);
    const from = period?.from ?? queryOf(req, 'from', 10).slice(0, 10);
    const to = period?.to ?? queryOf(req, 'to', 10).slice(0, 10);
    // the customer's language first (the API's default for the PDF)
    const pdfLangs: ('de' | 'en')[] = found.ok && found.body.language === 'English' ? ['en', 'de'] : ['de', 'en'];
    const form = `<form class="card filters" method="get" action="/app/customers/${esc(id)}/statement">
<div class="filter-grid"><div><label for="s-from">${esc(t.from)}</label><input id="s-from" name="from" type="date" value="${esc(ISO_DAY.test(from) ? from : '')}"></div>
<div><label for="s-to">${esc(t.to)}</label><input id="s-to" name="to" type="date" value="${esc(ISO_DAY.test(to) ? to : '')}"></div></div>
<p class="actions"><button type="submit">${esc(t.show)}</button></p></form>`;
    const back = `<p><a href="/app/customers/${esc(id)}">${esc(name)}</a></p>`;
    if (!period)
      return show(res, ctx, {
        status: 400,
        title: fill(t.statementOf, { name }),
        body: `${back}${form}`,
        message: { kind: 'error', text: t.badPeriod },
      });
    const q = period.params.toString();
    const st = await kit.api('GET', `/customer/${encodeURIComponent(id)}/statement${q ? `?${q}` : ''}`, undefined, as, Statement);
    if (!st.ok)
      return show(res, ctx, {
        status: st.status >= 500 ? 502 : st.status,
        title: fill(t.statementOf, { name }),
        body: `${back}${form}`,
        message: { kind: 'error', text: kit.problem(ctx, st) },
      });
    const s = st.body;
    const rows = s.entries
      .map(
        (e) =>
          `<tr>${td(t.date, day(lang, e.date))}${td(t.document, esc(e.document_number))}${td(t.postingType, esc(t.postingTypes[e.type] ?? e.type))}` +
          `${td(t.debit, money(lang, e.debit))}${td(t.credit, money(lang, e.credit))}${td(t.balance, money(lang, e.balance))}</tr>`,
      )
      .join('\n');
    // links, not a form: the download ends at the object store's presigned URL, and the CSP's form-action would stop
    // a form submission redirected there
    const pdfLinks = `<p class="actions">${pdfLangs
      .map((l) => {
        const p = new URLSearchParams(period.params);
        p.set('language', l);
        return `<a class="button secondary" href="/app/customers/${esc(id)}/statement.pdf?${esc(p.toString())}">${esc(fill(t.downloadPdf, { lang: t.pdfLanguages[l]! }))}</a>`;
      })
      .join('')}</p>`;
    const periodText = s.from || s.to ? `${day(lang, s.from)} – ${day(lang, s.to)}` : esc(t.wholeHistory);
    const table = `<div class="table-wrap" tabindex="0"><table class="cards"><caption class="sr-only">${esc(t.statement)}</caption><thead><tr><th scope="col">${esc(t.date)}</th><th scope="col">${esc(t.document)}</th><th scope="col">${esc(t.postingType)}</th><th scope="col">${esc(t.debit)}</th><th scope="col">${esc(t.credit)}</th><th scope="col">${esc(t.balance)}</th></tr></thead><tbody>${
      rows || `<tr><td colspan="6" class="muted">${esc(t.noEntries)}</td></tr>`
    }</tbody></table></div>`;
    show(res, ctx, {
      title: fill(t.statementOf, { name }),
      body: `${back}<p class="lead">${esc(t.statementLead)}</p>${form}<section class="card" aria-labelledby="st-h"><h2 id="st-h">${esc(t.period)}: ${periodText}</h2>
<dl class="facts"><div><dt>${esc(t.openingBalance)}</dt><dd>${money(lang, s.opening_balance)}</dd></div><div><dt>${esc(t.closingBalance)}</dt><dd><strong>${money(lang, s.closing_balance)}</strong></dd></div></dl>${pdfLinks}</section>${table}`,
    });
  });

  router.get('/customers/:id/statement.pdf', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (!ctx) return;
    if (!NUMERIC_ID.test(req.params.id)) return notFound(res, ctx);
    const t = texts[ctx.lang];
    const id = req.params.id;
    const period = periodOf(req);
    const back = `<p><a href="/app/customers/${esc(id)}/statement">${esc(t.statement)}</a></p>`;
    if (!period) return show(res, ctx, { status: 400, title: t.statement, body: back, message: { kind: 'error', text: t.badPeriod } });
    const language = queryOf(req, 'language');
    if (language === 'de' || language === 'en') period.params.set('language', language);
    await sendDownload(
      req,
      res,
      kit,
      ctx,
      `/customer/${encodeURIComponent(id)}/statement/pdf?${period.params.toString()}`,
      (status, text) => show(res, ctx, { status, title: t.statement, body: back, message: { kind: 'error', text } }),
    );
  });
}
