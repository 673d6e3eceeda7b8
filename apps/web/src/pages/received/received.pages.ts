import { randomUUID } from 'node:crypto';
import type { Request, Response, Router } from 'express';
import { InboundDocument, MessageBody, Supplier, SUPPLIER_MAX_IBANS, type InboundContent, type InboundParty } from '@inv/contracts';
import { esc, fill } from '../../kit/html';
import { td, type Ctx, type PagesKit } from '../../kit/pages-kit';
import type { Flash } from '../../kit/sessions';
import { csrfField, day, listOf, money, NUMERIC_ID, pageOf, pager, queryOf, sendDownload, when } from '../customers/shared';
import { texts } from './texts';

const LIMIT = 25;
const VAT_ID = /^[A-Za-z]{2} ?[A-Za-z0-9+*. ]{1,20}$/;
const PEPPOL_ID = /^\d{4}:[^\s]{1,50}$/;
/** The path the API names for a stored attachment: its number is taken from there, never from the document's text. */
const ATTACHMENT_PATH = /\/inbound\/\d+\/attachments\/([1-9]\d{0,3})$/;

type Doc = InboundDocument;

/**
 * Received e-invoices in the dashboard: the inbox (status, check result and supplier VAT ID filters, the API's
 * paging), a document's page (what was read, the findings of the official rules, the supplier it was matched
 * with, the readable PDF view, the original and the attachments as downloads) and its actions: add the sender to
 * the supplier register, delete (after a confirmation). Files are never shown inline: the API's presigned links
 * download them (Content-Disposition: attachment), so nothing of a supplier's document runs in the dashboard.
 */
export function registerReceivedPages(router: Router, kit: PagesKit): void {
  const show = (res: Response, ctx: Ctx, o: { title: string; body: string; status?: number; message?: Flash }) =>
    kit.render(res, ctx, { ...o, current: 'received' });
  const notFound = (res: Response, ctx: Ctx) =>
    show(res, ctx, {
      status: 404,
      title: texts[ctx.lang].document,
      body: `<p><a href="/app/received">${esc(texts[ctx.lang].back)}</a></p>`,
      message: { kind: 'error', text: texts[ctx.lang].notFound },
    });
  const badge = (kind: '' | 'off' | 'bad', text: string) => `<span class="badge${kind ? ` ${kind}` : ''}">${esc(text)}</span>`;
  const statusBadges = (ctx: Ctx, d: Pick<Doc, 'status' | 'valid'>) => {
    const t = texts[ctx.lang];
    if (d.status !== 'RECEIVED') return badge(d.status === 'REJECTED' ? 'bad' : 'off', t.statuses[d.status] ?? d.status);
    return `${badge('off', t.statuses.RECEIVED!)} ${d.valid ? badge('', t.valid) : badge('bad', t.invalid)}`;
  };
  const nameOf = (ctx: Ctx, d: Pick<Doc, 'number' | 'seller_name' | 'filename' | 'id'>) =>
    [d.seller_name, d.number].filter(Boolean).join(' · ') || d.filename || `#${d.id}`;

  router.get('/received', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (!ctx) return;
    const t = texts[ctx.lang];
    const lang = ctx.lang;
    const status = queryOf(req, 'status');
    const valid = queryOf(req, 'valid');
    const vat = queryOf(req, 'seller_vat_id', 24);
    const page = pageOf(req);
    const params = new URLSearchParams();
    if (status === 'PROCESSING' || status === 'RECEIVED' || status === 'REJECTED') params.set('status', status);
    if (valid === 'true' || valid === 'false') params.set('valid', valid);
    const vatOk = !vat || VAT_ID.test(vat);
    if (vat && vatOk) params.set('seller_vat_id', vat);
    const api = new URLSearchParams(params);
    api.set('page', String(page));
    api.set('limit', String(LIMIT));
    const opt = (v: string, label: string, cur: string) =>
      `<option value="${esc(v)}"${v === cur ? ' selected' : ''}>${esc(label)}</option>`;
    const filters = `<form class="card filters" method="get" action="/app/received" role="search">
<div class="filter-grid"><div><label for="f-status">${esc(t.status)}</label><select id="f-status" name="status">${opt('', t.anyStatus, status)}${['RECEIVED', 'PROCESSING', 'REJECTED'].map((s) => opt(s, t.statuses[s]!, status)).join('')}</select></div>
<div><label for="f-valid">${esc(t.validity)}</label><select id="f-valid" name="valid">${opt('', t.anyValidity, valid)}${opt('true', t.validities.true!, valid)}${opt('false', t.validities.false!, valid)}</select></div>
<div><label for="f-vat">${esc(t.sellerVatId)}</label><input id="f-vat" name="seller_vat_id" maxlength="24" autocomplete="off" value="${esc(vat)}"${vatOk ? '' : ' aria-invalid="true" aria-describedby="f-vat-err"'}>${vatOk ? '' : `<p id="f-vat-err" class="field-error">${esc(t.badVatId)}</p>`}</div></div>
<p class="actions"><button type="submit">${esc(t.filter)}</button><a href="/app/received">${esc(t.reset)}</a></p></form>`;
    if (!vatOk) return show(res, ctx, { status: 400, title: t.received, body: filters, message: { kind: 'error', text: t.badVatId } });
    const listed = await listOf(kit, `/inbound/?${api.toString()}`, kit.asMember(req, res, ctx.s), InboundDocument);
    if (!listed.ok)
      return show(res, ctx, {
        status: listed.status >= 500 ? 502 : listed.status,
        title: t.received,
        body: filters,
        message: { kind: 'error', text: kit.problem(ctx, listed) },
      });
    // five columns, so the table fits a desktop without scrolling: the issue date under the number, the error count under the status
    const listStatus = (d: Doc) =>
      d.status !== 'RECEIVED'
        ? badge(d.status === 'REJECTED' ? 'bad' : 'off', t.statuses[d.status] ?? d.status)
        : `<span>${d.valid ? badge('', t.valid) : badge('bad', t.invalid)}<br><span class="muted">${esc(fill(t.errors, { count: String(d.error_count) }))}</span></span>`;
    const rows = listed.items
      .filter((d) => NUMERIC_ID.test(String(d.id)))
      .map(
        (d) =>
          `<tr>${td(t.receivedAt, day(lang, d.received_at))}${td(
            t.seller,
            `<span><a class="long" href="/app/received/${d.id}">${esc(d.seller_name || d.filename || `#${d.id}`)}</a>${d.seller_vat_id ? `<br><span class="muted">${esc(d.seller_vat_id)}</span>` : ''}</span>`,
          )}` +
          `${td(
            t.number,
            `<span>${esc(d.number ?? '')}${d.document_type === 'CREDIT_NOTE' ? ` <span class="muted">${esc(t.documentType.CREDIT_NOTE!)}</span>` : ''}${d.issue_date ? `<br><span class="muted">${day(lang, d.issue_date)}</span>` : ''}</span>`,
          )}` +
          `${td(t.payable, money(lang, d.payable, d.currency))}${td(t.checkStatus, listStatus(d))}</tr>`,
      )
      .join('\n');
    const table = listed.items.length
      ? `<div class="table-wrap" tabindex="0"><table class="cards"><caption class="sr-only">${esc(t.received)}</caption><thead><tr><th scope="col">${esc(t.receivedAt)}</th><th scope="col">${esc(t.seller)}</th><th scope="col">${esc(t.number)}</th><th scope="col">${esc(t.payable)}</th><th scope="col">${esc(t.checkStatus)}</th></tr></thead><tbody>${rows}</tbody></table></div>`
      : `<p class="muted">${esc(t.noDocuments)}</p>`;
    show(res, ctx, {
      title: t.received,
      message: await kit.takeFlash(req, res),
      body: `${filters}${table}${pager({ base: '/app/received', params, page, limit: LIMIT, total: listed.total, labels: { prev: t.prev, next: t.next, of: t.pageOf, nav: t.paging } })}`,
    });
  });

  /** The document, or a page already sent (404 or the API's refusal). */
  async function load(req: Request, res: Response, ctx: Ctx, id: string): Promise<Doc | undefined> {
    const found = await kit.api('GET', `/inbound/${encodeURIComponent(id)}`, undefined, kit.asMember(req, res, ctx.s), InboundDocument);
    if (found.ok) return found.body;
    if (found.status === 404) notFound(res, ctx);
    else
      show(res, ctx, {
        status: found.status >= 500 ? 502 : found.status,
        title: texts[ctx.lang].document,
        body: `<p><a href="/app/received">${esc(texts[ctx.lang].back)}</a></p>`,
        message: { kind: 'error', text: kit.problem(ctx, found) },
      });
    return undefined;
  }

  const dl = (pairs: [string, string][]) =>
    `<dl class="facts">${pairs
      .filter(([, v]) => v !== '')
      .map(([k, v]) => `<div><dt>${esc(k)}</dt><dd>${v}</dd></div>`)
      .join('')}</dl>`;

  function partyHtml(p: InboundParty): string {
    const a = p.address;
    const lines = [
      p.name,
      p.trading_name && p.trading_name !== p.name ? p.trading_name : undefined,
      a?.street,
      a?.additional,
      [a?.postal_code, a?.city].filter(Boolean).join(' '),
      a?.country,
    ].filter((l): l is string => !!l);
    const ids = [
      p.vat_id,
      p.tax_number,
      p.electronic_address ? `${p.electronic_address.scheme ?? ''}:${p.electronic_address.value}` : undefined,
    ].filter((l): l is string => !!l);
    const contact = [p.contact?.name, p.contact?.email, p.contact?.phone].filter((l): l is string => !!l);
    return `${lines.map((l) => esc(l)).join('<br>')}${ids.length ? `<br><code>${ids.map((l) => esc(l)).join(' · ')}</code>` : ''}${contact.length ? `<br><span class="muted">${contact.map((l) => esc(l)).join(' · ')}</span>` : ''}`;
  }

  function contentHtml(ctx: Ctx, c: InboundContent): string {
    const t = texts[ctx.lang];
    const lang = ctx.lang;
    const cur = c.currency ?? 'EUR';
    const m = (v: string | undefined) => money(lang, v, cur);
    const head = `<section class="card" aria-labelledby="content-h"><h2 id="content-h">${esc(t.content)}</h2><div class="two-col"><div><h3>${esc(t.seller)}</h3><p>${partyHtml(c.seller)}</p></div><div><h3>${esc(t.buyer)}</h3><p>${partyHtml(c.buyer)}</p></div></div>${dl(
      [
        [t.buyerReference, esc(c.buyer_reference ?? '')],
        [t.orderReference, esc(c.order_reference ?? '')],
        [t.contractReference, esc(c.contract_reference ?? '')],
        [t.deliveryDate, day(lang, c.delivery_date)],
        [t.servicePeriod, c.service_period ? `${day(lang, c.service_period.start)} – ${day(lang, c.service_period.end)}` : ''],
      ],
    )}${c.notes.length ? `<h3>${esc(t.notes)}</h3>${c.notes.map((n) => `<p class="note">${esc(n)}</p>`).join('')}` : ''}</section>`;
    const lineRows = c.lines
      .map(
        (l) =>
          `<tr>${td(t.pos, esc(l.id))}${td(t.description, `${esc(l.name ?? '')}${l.description && l.description !== l.name ? `<br><span class="muted">${esc(l.description)}</span>` : ''}`)}` +
          `${td(t.quantity, esc([l.quantity, l.unit].filter(Boolean).join(' ')))}${td(t.unitPrice, m(l.net_price))}${td(t.vatRate, l.vat_rate !== undefined ? `${esc(l.vat_rate)} %` : esc(l.vat_category ?? ''))}${td(t.net, m(l.net_amount))}</tr>`,
      )
      .join('');
    const lines = `<section class="block" aria-labelledby="lines-h"><h2 id="lines-h">${esc(t.lines)}</h2><div class="table-wrap" tabindex="0"><table class="cards"><caption class="sr-only">${esc(t.lines)}</caption><thead><tr><th scope="col">${esc(t.pos)}</th><th scope="col">${esc(t.description)}</th><th scope="col">${esc(t.quantity)}</th><th scope="col">${esc(t.unitPrice)}</th><th scope="col">${esc(t.vatRate)}</th><th scope="col">${esc(t.net)}</th></tr></thead><tbody>${lineRows}</tbody></table></div></section>`;
    const vatRows = c.vat_breakdown
      .map(
        (v) =>
          `<tr>${td(t.category, esc(v.category ?? ''))}${td(t.vatRate, v.rate !== undefined ? `${esc(v.rate)} %` : '')}${td(t.taxable, m(v.taxable_amount))}${td(t.tax, m(v.tax_amount))}</tr>`,
      )
      .join('');
    const tot = c.totals;
    const totals = `<section class="card" aria-labelledby="totals-h"><h2 id="totals-h">${esc(t.totals)}</h2>${
      vatRows
        ? `<div class="table-wrap" tabindex="0"><table class="cards"><caption>${esc(t.vatBreakdown)}</caption><thead><tr><th scope="col">${esc(t.category)}</th><th scope="col">${esc(t.vatRate)}</th><th scope="col">${esc(t.taxable)}</th><th scope="col">${esc(t.tax)}</th></tr></thead><tbody>${vatRows}</tbody></table></div>`
        : ''
    }${dl([
      [t.lineTotal, m(tot.line_total)],
      [t.taxExclusive, m(tot.tax_exclusive)],
      [t.taxTotal, m(tot.tax_total)],
      [t.taxInclusive, m(tot.tax_inclusive)],
      [t.prepaid, m(tot.prepaid)],
      [t.payable, tot.payable ? `<strong>${m(tot.payable)}</strong>` : ''],
    ])}${
      c.payment_means.length || c.payment_terms
        ? `<h3>${esc(t.payment)}</h3>${c.payment_means
            .map((p) =>
              dl([
                [t.iban, p.iban ? `<code>${esc(p.iban)}</code>` : ''],
                [t.bic, esc(p.bic ?? '')],
                [t.remittance, esc(p.remittance ?? '')],
              ]),
            )
            .join('')}${c.payment_terms ? `<p>${esc(t.paymentTerms)}: ${esc(c.payment_terms)}</p>` : ''}`
        : ''
    }</section>`;
    return head + lines + totals;
  }

  async function documentPage(req: Request, res: Response, ctx: Ctx, id: string, status = 200, message?: Flash) {
    const t = texts[ctx.lang];
    const lang = ctx.lang;
    const d = await load(req, res, ctx, id);
    if (!d) return;
    const supplier =
      d.supplier_id !== undefined && NUMERIC_ID.test(String(d.supplier_id))
        ? await kit.api('GET', `/suppliers/${d.supplier_id}`, undefined, kit.asMember(req, res, ctx.s), Supplier)
        : undefined;
    const warnings = [
      d.status === 'PROCESSING' ? `<p class="msg warn">${esc(t.processing)}</p>` : '',
      d.status === 'REJECTED' && d.error
        ? `<p class="msg error">${esc(fill(t.rejected, { message: d.error.message, code: d.error.code }))}</p>`
        : '',
      d.duplicate_of !== undefined && NUMERIC_ID.test(String(d.duplicate_of))
        ? `<p class="msg warn">${esc(fill(t.duplicate, { number: d.number ?? '' }))} <a href="/app/received/${d.duplicate_of}">${esc(t.duplicateLink)}</a></p>`
        : '',
      d.iban_differs ? `<p class="msg error">${esc(t.ibanDiffers)}</p>` : '',
    ].join('');
    const summary = `<section class="card" aria-labelledby="sum-h"><h2 id="sum-h" class="sr-only">${esc(t.status)}</h2>${dl([
      [t.status, statusBadges(ctx, d)],
      [t.type, d.document_type ? esc(t.documentType[d.document_type] ?? d.document_type) : ''],
      [t.number, esc(d.number ?? '')],
      [t.issueDate, day(lang, d.issue_date)],
      [t.dueDate, day(lang, d.content?.due_date)],
      [t.seller, `${esc(d.seller_name ?? '')}${d.seller_vat_id ? `<br><code>${esc(d.seller_vat_id)}</code>` : ''}`],
      [t.payable, d.payable ? `<strong>${money(lang, d.payable, d.currency)}</strong>` : ''],
      [
        t.format,
        esc(
          [d.profile, d.version && !d.profile?.includes(d.version) ? d.version : undefined].filter(Boolean).join(' ') || (d.format ?? ''),
        ),
      ],
      [t.receivedAt, when(lang, d.received_at)],
      [
        t.file,
        `<span class="long">${esc(d.filename ?? '')}</span> <span class="muted">${esc(fill(t.bytes, { size: new Intl.NumberFormat(lang === 'de' ? 'de-DE' : 'en-GB').format(d.size) }))}</span>`,
      ],
    ])}</section>`;

    const pdfOriginal = d.media_type === 'application/pdf';
    const views = pdfOriginal
      ? `<li><a href="/app/received/${id}/view.pdf">${esc(t.sentPdf)}</a></li>`
      : d.status === 'RECEIVED'
        ? (['de', 'en'] as const)
            .map(
              (l) => `<li><a href="/app/received/${id}/view.pdf?language=${l}">${esc(fill(t.viewPdf, { lang: t.viewLangs[l]! }))}</a></li>`,
            )
            .join('')
        : '';
    const attachments = (d.content?.attachments ?? [])
      .map((a) => {
        const n = a.download ? ATTACHMENT_PATH.exec(a.download)?.[1] : undefined;
        const label = esc(a.filename || a.description || a.id || '—');
        const extra = [
          a.description && a.description !== a.filename ? a.description : '',
          a.size !== undefined ? fill(t.bytes, { size: String(a.size) }) : '',
        ]
          .filter(Boolean)
          .join(' · ');
        return `<li>${n ? `<a href="/app/received/${id}/attachments/${n}">${label}</a>` : `${label} <span class="muted">(${esc(a.uri ? a.uri : t.attachmentNotStored)})</span>`}${extra ? ` <span class="muted">${esc(extra)}</span>` : ''}</li>`;
      })
      .join('');
    const files = `<section class="card" aria-labelledby="files-h"><h2 id="files-h">${esc(t.files)}</h2><ul class="plain">${views}<li><a href="/app/received/${id}/original">${esc(fill(t.original, { type: pdfOriginal ? 'PDF' : 'XML' }))}</a></li></ul>${
      d.content
        ? `<h3>${esc(t.attachments)}</h3>${attachments ? `<ul class="plain">${attachments}</ul>` : `<p class="muted">${esc(t.noAttachments)}</p>`}`
        : ''
    }</section>`;

    const canAddSupplier = kit.may(ctx, 'POST', '/suppliers/');
    const s = supplier?.ok ? supplier.body : undefined;
    const supplierCard = `<section class="card" aria-labelledby="sup-h"><h2 id="sup-h">${esc(t.supplier)}</h2>${
      s
        ? `<p>${esc(t.supplierMatched)}: <strong>${esc(s.name)}</strong></p>${dl([
            [t.vatId, s.vat_id ? `<code>${esc(s.vat_id)}</code>` : ''],
            [t.peppolId, s.peppol_id ? `<code>${esc(s.peppol_id)}</code>` : ''],
            [t.ibans, s.ibans.map((i) => `<code>${esc(i)}</code>`).join('<br>')],
          ])}`
        : supplier && !supplier.ok
          ? `<p class="muted">${esc(kit.problem(ctx, supplier))}</p>`
          : `<p class="muted">${esc(t.noSupplier)}</p>${
              canAddSupplier && d.content?.seller.name
                ? `<form method="post" action="/app/received/${id}/supplier">${csrfField(ctx)}<input type="hidden" name="idem" value="${randomUUID()}"><button type="submit" class="secondary">${esc(t.addSupplier)}</button></form>`
                : ''
            }`
    }</section>`;

    const sevKind = (sv: string) => (sv === 'fatal' || sv === 'error' ? 'bad' : 'off');
    const findings = d.findings ?? [];
    const findingRows = findings
      .map(
        (f) =>
          `<tr>${td(t.severity, badge(sevKind(f.severity), t.severities[f.severity] ?? f.severity))}${td(t.rule, `<code class="rule">${esc(f.rule)}</code>`)}${td(t.message, esc(f.message))}${td(t.location, `<code class="loc">${esc(f.location)}</code>`)}</tr>`,
      )
      .join('');
    const findingsCard =
      d.status === 'RECEIVED'
        ? `<section class="block" aria-labelledby="find-h"><h2 id="find-h">${esc(t.findings)}</h2>${
            findings.length
              ? `<div class="table-wrap" tabindex="0"><table class="cards"><caption class="sr-only">${esc(t.findings)}</caption><thead><tr><th scope="col">${esc(t.severity)}</th><th scope="col">${esc(t.rule)}</th><th scope="col">${esc(t.message)}</th><th scope="col">${esc(t.location)}</th></tr></thead><tbody>${findingRows}</tbody></table></div>`
              : `<p>${esc(t.noFindings)}</p>`
          }</section>`
        : '';

    const canDelete = kit.may(ctx, 'DELETE', `/inbound/${id}`);
    const actions = canDelete
      ? `<p class="actions"><a class="button secondary" href="/app/received/${id}/delete">${esc(t.delete)}</a></p>`
      : '';
    show(res, ctx, {
      status,
      title: `${t.document}: ${nameOf(ctx, d)}`,
      message,
      body: `<p><a href="/app/received">${esc(t.back)}</a></p>${warnings}${summary}<div class="two-col">${files}${supplierCard}</div>${findingsCard}${d.content ? contentHtml(ctx, d.content) : ''}${actions}`,
    });
  }

  router.get('/received/:id', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (!ctx) return;
    if (!NUMERIC_ID.test(req.params.id)) return notFound(res, ctx);
    await documentPage(req, res, ctx, req.params.id, 200, await kit.takeFlash(req, res));
  });

  /** Downloads: the API's presigned links (always Content-Disposition: attachment), followed by the browser. */
  const download = (path: string, apiPath: (id: string, req: Request) => string | undefined) =>
    router.get(path, async (req: Request<Record<string, string>>, res) => {
      const ctx = await kit.signedIn(req, res, false);
      if (!ctx) return;
      const id = req.params.id ?? '';
      if (!NUMERIC_ID.test(id)) return notFound(res, ctx);
      const to = apiPath(id, req);
      if (!to) return notFound(res, ctx);
      const t = texts[ctx.lang];
      await sendDownload(req, res, kit, ctx, to, (status, text) =>
        show(res, ctx, {
          status,
          title: t.document,
          body: `<p><a href="/app/received/${esc(id)}">${esc(t.document)}</a></p>`,
          message: { kind: 'error', text },
        }),
      );
    });
  download('/received/:id/view.pdf', (id, req) => {
    const l = queryOf(req, 'language');
    return `/inbound/${id}/pdf?language=${l === 'en' ? 'en' : 'de'}`;
  });
  download('/received/:id/original', (id) => `/inbound/${id}/original`);
  download('/received/:id/attachments/:n', (id, req) => {
    const n = String(req.params.n ?? '');
    return /^[1-9]\d{0,3}$/.test(n) ? `/inbound/${id}/attachments/${n}` : undefined;
  });

  /** Adds the document's seller to the supplier register (name, VAT ID, Peppol ID and IBANs as the document states them). */
  router.post('/received/:id/supplier', async (req, res) => {
    const ctx = await kit.signedIn(req, res, true);
    if (!ctx) return;
    const t = texts[ctx.lang];
    if (!NUMERIC_ID.test(req.params.id)) return notFound(res, ctx);
    const id = req.params.id;
    if (!kit.may(ctx, 'POST', '/suppliers/')) return kit.refuse(res, ctx, { title: t.document, current: 'received' });
    const d = await load(req, res, ctx, id);
    if (!d) return;
    const seller = d.content?.seller;
    const name = seller?.name?.trim().slice(0, 200);
    if (!seller || !name) return kit.redirectWith(req, res, `/app/received/${id}`, { kind: 'error', text: t.supplierNoName });
    const vatId = seller.vat_id && VAT_ID.test(seller.vat_id) ? seller.vat_id : undefined;
    const ea = seller.electronic_address;
    const peppol = ea?.scheme ? `${ea.scheme}:${ea.value}` : undefined;
    const ibans = [
      ...new Set(
        (d.content?.payment_means ?? [])
          .map((p) => p.iban?.replace(/\s+/g, ''))
          .filter((i): i is string => !!i && i.length >= 15 && i.length <= 42),
      ),
    ].slice(0, SUPPLIER_MAX_IBANS);
    const created = await kit.api(
      'POST',
      '/suppliers/',
      { name, ...(vatId ? { vat_id: vatId } : {}), ...(peppol && PEPPOL_ID.test(peppol) ? { peppol_id: peppol } : {}), ibans },
      kit.asMember(req, res, ctx.s, kit.field(req, 'idem').slice(0, 64) || undefined),
      Supplier,
    );
    if (!created.ok)
      return documentPage(req, res, ctx, id, created.status >= 500 ? 502 : created.status, {
        kind: 'error',
        text: kit.problem(ctx, created),
      });
    await kit.redirectWith(req, res, `/app/received/${id}`, { kind: 'ok', text: fill(t.supplierAdded, { name: created.body.name }) });
  });

  router.get('/received/:id/delete', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (!ctx) return;
    const t = texts[ctx.lang];
    if (!NUMERIC_ID.test(req.params.id)) return notFound(res, ctx);
    const id = req.params.id;
    if (!kit.may(ctx, 'DELETE', `/inbound/${id}`)) return kit.refuse(res, ctx, { title: t.deleteTitle, current: 'received' });
    const d = await load(req, res, ctx, id);
    if (!d) return;
    show(res, ctx, {
      title: t.deleteTitle,
      body: `<div class="card narrow"><form method="post" action="/app/received/${id}/delete">${csrfField(ctx)}
<p class="lead">${esc(fill(t.deleteConfirm, { name: nameOf(ctx, d) }))}</p><p class="actions"><button type="submit" class="danger">${esc(t.delete)}</button> <a class="button secondary" href="/app/received/${id}">${esc(t.cancel)}</a></p></form></div>`,
    });
  });

  router.post('/received/:id/delete', async (req, res) => {
    const ctx = await kit.signedIn(req, res, true);
    if (!ctx) return;
    const t = texts[ctx.lang];
    if (!NUMERIC_ID.test(req.params.id)) return notFound(res, ctx);
    const id = req.params.id;
    if (!kit.may(ctx, 'DELETE', `/inbound/${id}`)) return kit.refuse(res, ctx, { title: t.deleteTitle, current: 'received' });
    const deleted = await kit.api('DELETE', `/inbound/${encodeURIComponent(id)}`, undefined, kit.asMember(req, res, ctx.s), MessageBody);
    if (!deleted.ok)
      return documentPage(req, res, ctx, id, deleted.status >= 500 ? 502 : deleted.status, {
        kind: 'error',
        text: kit.problem(ctx, deleted),
      });
    await kit.redirectWith(req, res, '/app/received', { kind: 'ok', text: t.deleted });
  });
}
