import { randomUUID } from 'node:crypto';
import type { Request, Response, Router } from 'express';
import type { z } from 'zod';
import {
  BANK_STATEMENT_MAX_BYTES,
  BankEntryChanged,
  BankStatementDetail,
  BankStatementImported,
  BankStatementList,
  InvoicePage,
  type BankStatementEntry,
} from '@inv/contracts';
import { esc, fill } from '../../kit/html';
import type { PageAnswer } from '../../kit/api-client';
import { td, type Ctx, type PagesKit } from '../../kit/pages-kit';
import { sameToken, type Flash } from '../../kit/sessions';
import { dateTime, day, factTable, ibanGroups, money, pageParam, pager, percent, query, selectFilter } from '../receivables-format';
import { texts, type BankTexts } from './texts';
import { readUpload } from './upload';

type Entry = z.output<typeof BankStatementEntry>;
type Statement = z.output<typeof BankStatementDetail>;

/** A statement's or an entry's id: a positive integer (anything else is a 404 page, never an API path). */
const ID = /^[1-9]\d{0,8}$/;
const IDEM = /^[\w-]{8,64}$/;
const STATES = ['open', 'confirmed', 'ignored'] as const;
const LIST_LIMIT = 25;
const ENTRY_LIMIT = 50;
/** A multipart form's framing besides the file (boundaries, part headers, the csrf and idempotency fields). */
const FORM_OVERHEAD = 64 * 1024;

/**
 * Bank statements (Kontoauszüge): upload a camt.053 file, list the statements, and per incoming payment its match
 * proposals with their confidence and reasons: confirm one (a payment on the invoice), correct it (another invoice,
 * amount or date) or ignore the line. Reads need `read`, every action `invoices:write` (the gateway checks again).
 */
export function registerBankStatementPages(router: Router, kit: PagesKit): void {
  const bt = (ctx: Ctx): BankTexts => texts[ctx.lang];
  const current = 'bank' as const;
  const csrfField = (ctx: Ctx) => `<input type="hidden" name="csrf" value="${esc(ctx.s.csrf)}">`;
  const codeOf = (body: Record<string, unknown>) =>
    typeof body.code === 'string' ? body.code : typeof body.error_code === 'string' ? body.error_code : '';
  /** The API's refusal in the page's language: this section's codes first, then the dashboard's general sentences. */
  const problemText = (ctx: Ctx, answer: Extract<PageAnswer<unknown>, { ok: false }>) =>
    bt(ctx).codes[codeOf(answer.body)] ?? kit.problem(ctx, answer);
  const statusOf = (answer: { status: number }) => (answer.status >= 500 ? 502 : answer.status);
  const notFound = (res: Response, ctx: Ctx, text: string) =>
    kit.render(res, ctx, {
      status: 404,
      title: bt(ctx).statement,
      current,
      body: `<p><a href="/app/bank-statements">${esc(bt(ctx).backToList)}</a></p>`,
      message: { kind: 'error', text },
    });
  const canAct = (ctx: Ctx) => kit.may(ctx, 'POST', '/bank-statements/1/entries/1/confirm');

  // ---------------------------------------------------------------- the list and the upload

  async function listPage(req: Request, res: Response, ctx: Ctx, status: number, message?: Flash) {
    const t = bt(ctx);
    const page = pageParam(req.query.page);
    const listed = await kit.api(
      'GET',
      `/bank-statements/${query({ page, limit: LIST_LIMIT })}`,
      undefined,
      kit.asMember(req, res, ctx.s),
      BankStatementList,
    );
    if (!listed.ok && !message) {
      status = statusOf(listed);
      message = { kind: 'error', text: problemText(ctx, listed) };
    }
    const statements = listed.ok ? listed.body.bank_statements : [];
    const uploadForm = kit.may(ctx, 'POST', '/bank-statements/')
      ? `<section class="card" aria-labelledby="upload-h"><h2 id="upload-h">${esc(t.upload)}</h2><p class="muted">${esc(t.uploadHint)}</p>
<form class="stack" method="post" action="/app/bank-statements" enctype="multipart/form-data">${csrfField(ctx)}<input type="hidden" name="idem" value="${randomUUID()}">
<label for="file">${esc(t.file)}</label><input id="file" name="file" type="file" required accept=".xml,application/xml,text/xml">
<p class="actions"><button type="submit">${esc(t.uploadButton)}</button></p></form></section>`
      : '';
    const rows = statements
      .map((s) => {
        const open = Math.max(0, s.credits - s.confirmed - s.ignored);
        const accounts = s.statements.map((x) => esc(ibanGroups(x.account_iban))).join('<br>');
        return `<tr>${td(
          t.statement,
          `<span><a href="/app/bank-statements/${esc(s.id)}">${esc(s.filename ?? s.message_id)}</a><br><span class="muted">${accounts}</span></span>`,
        )}${td(t.importedAt, esc(dateTime(ctx.lang, s.created_at)))}${td(t.credits, esc(s.credits))}${td(
          t.withProposals,
          esc(s.credits_with_proposals),
        )}${td(t.confirmed, esc(s.confirmed))}${td(t.open, open ? `<span class="badge off">${esc(open)}</span>` : '0')}</tr>`;
      })
      .join('\n');
    const head = [t.statement, t.importedAt, t.credits, t.withProposals, t.confirmed, t.open]
      .map((h) => `<th scope="col">${esc(h)}</th>`)
      .join('');
    const table = statements.length
      ? `<div class="table-wrap" tabindex="0"><table class="cards"><caption class="sr-only">${esc(t.statements)}</caption><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table></div>`
      : listed.ok
        ? `<p class="muted">${esc(t.noStatements)}</p>`
        : '';
    const paging = listed.ok ? pager(listed.body, (p) => `/app/bank-statements${query({ page: p })}`, t) : '';
    kit.render(res, ctx, { status, title: t.statements, current, body: `${uploadForm}${table}${paging}`, message });
  }

  router.get('/bank-statements', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (ctx) await listPage(req, res, ctx, 200, await kit.takeFlash(req, res));
  });

  router.post('/bank-statements', async (req, res) => {
    // the form is multipart: its CSRF field is read with the file, below (the session is checked first)
    const ctx = await kit.signedIn(req, res, false);
    if (!ctx) return void req.resume();
    const t = bt(ctx);
    const refuseUpload = (status: number, text: string) => {
      if (!req.complete) res.setHeader('connection', 'close');
      req.resume();
      return listPage(req, res, ctx, status, { kind: 'error', text });
    };
    if (!kit.sameOrigin(req)) {
      req.resume();
      return kit.render(res, ctx, { status: 403, title: t.statements, current, body: '', message: { kind: 'error', text: ctx.t.csrf } });
    }
    if (!kit.may(ctx, 'POST', '/bank-statements/')) {
      req.resume();
      return kit.refuse(res, ctx, { title: t.statements, current });
    }
    if (!req.is('multipart/form-data')) return refuseUpload(400, t.noFile);
    if (Number(req.headers['content-length'] ?? 0) > BANK_STATEMENT_MAX_BYTES + FORM_OVERHEAD) return refuseUpload(413, t.tooLarge);
    const upload = await readUpload(req, BANK_STATEMENT_MAX_BYTES);
    if (!upload.ok)
      return refuseUpload(upload.reason === 'too_large' ? 413 : 400, upload.reason === 'too_large' ? t.tooLarge : t.malformedUpload);
    if (!sameToken(upload.fields.csrf, ctx.s.csrf))
      return kit.render(res, ctx, { status: 403, title: t.statements, current, body: '', message: { kind: 'error', text: ctx.t.csrf } });
    if (!upload.file) return listPage(req, res, ctx, 400, { kind: 'error', text: t.noFile });
    const idem = upload.fields.idem && IDEM.test(upload.fields.idem) ? upload.fields.idem : undefined;

    // forwarded as the API takes it: the one file of a multipart form, with its name
    const form = new FormData();
    const name = upload.file.filename.replace(/[^\w .()-]/g, '_') || 'statement.xml';
    form.append('file', new Blob([upload.file.bytes], { type: 'application/xml' }), name);
    const encoded = new globalThis.Response(form);
    const contentType = encoded.headers.get('content-type') ?? 'multipart/form-data';
    const data = Buffer.from(await encoded.arrayBuffer());
    let answer: PageAnswer<z.output<typeof BankStatementImported>>;
    try {
      const r = await kit.raw('POST', '/bank-statements/', kit.asMember(req, res, ctx.s, idem), { contentType, data });
      answer = await jsonAnswer(r, BankStatementImported);
    } catch {
      answer = { ok: false, status: 503, body: { code: 'SERVICE_UNAVAILABLE' } };
    }
    if (!answer.ok) return listPage(req, res, ctx, statusOf(answer), { kind: 'error', text: problemText(ctx, answer) });
    const s = answer.body;
    await kit.redirectWith(req, res, `/app/bank-statements/${s.id}`, {
      kind: 'ok',
      text:
        answer.status === 201
          ? fill(t.imported, { entries: String(s.entries_total), credits: String(s.credits), proposals: String(s.credits_with_proposals) })
          : t.importedBefore,
    });
  });

  // ---------------------------------------------------------------- one statement

  const entryTitle = (ctx: Ctx, e: Entry) => {
    const t = bt(ctx);
    const sign = e.type === 'debit' ? '−' : '+';
    return `${fill(t.line, { id: String(e.id) })} · ${sign} ${money(ctx.lang, e.amount, e.currency)}${e.payer_name ? ` · ${e.payer_name}` : ''}`;
  };
  /** Whether the line can be booked as a payment (an EUR credit, booked, not a reversal). */
  const bookable = (e: Entry) => e.type === 'credit' && !e.reversal && e.currency === 'EUR' && (e.booking_status ?? 'BOOK') === 'BOOK';

  function entryCard(ctx: Ctx, st: Statement, e: Entry): string {
    const t = bt(ctx);
    const stateBadge = `<span class="badge${e.state === 'confirmed' ? '' : ' off'}">${esc(t.states[e.state] ?? e.state)}</span>`;
    const kind = `${e.type === 'debit' ? t.debit : t.credit}${e.reversal ? ` (${t.reversal})` : ''}`;
    const facts: [string, string][] = [
      [t.bookingDate, esc(day(ctx.lang, e.booking_date))],
      [t.valueDate, esc(day(ctx.lang, e.value_date))],
      [t.payer, esc(e.payer_name ?? '')],
      [t.iban, esc(e.payer_iban ? ibanGroups(e.payer_iban) : '')],
      [t.remittance, e.remittance_information.map((l) => esc(l)).join('<br>')],
      [t.references, e.references.map((l) => `<code>${esc(l)}</code>`).join(', ')],
      [t.additional, esc(e.additional_information ?? '')],
      [t.endToEnd, e.end_to_end_id && e.end_to_end_id !== 'NOTPROVIDED' ? `<code>${esc(e.end_to_end_id)}</code>` : ''],
    ];
    const base = `/app/bank-statements/${st.id}/entries/${e.id}`;
    const act = canAct(ctx) && e.state !== 'confirmed' && bookable(e);
    let proposals = '';
    if (e.payment) {
      proposals = `<p class="msg ok">${esc(
        fill(t.bookedAs, {
          amount: money(ctx.lang, e.payment.amount),
          invoice: String(e.proposals.find((p) => p.invoice_id === e.payment!.invoice_id)?.invoice_number ?? e.payment.invoice_id),
          date: day(ctx.lang, e.payment.confirmed_at),
        }),
      )} <a href="/app/invoices/${esc(e.payment.invoice_id)}">${esc(t.invoice)}</a></p>`;
    } else if (e.type === 'credit' && e.booking_status && e.booking_status !== 'BOOK') {
      proposals = `<p class="muted">${esc(fill(t.notBooked, { status: e.booking_status }))}</p>`;
    } else if (e.type === 'credit' && e.proposals.length) {
      const rows = e.proposals
        .map((p) => {
          const reasons = p.reasons.map((r) => esc(t.reasons[r] ?? r)).join('; ');
          const confirm = act
            ? `<form method="post" action="${base}/confirm">${csrfField(ctx)}<input type="hidden" name="idem" value="${randomUUID()}"><input type="hidden" name="invoice_id" value="${esc(p.invoice_id)}"><button type="submit">${esc(t.confirm)}<span class="sr-only">: ${esc(p.invoice_number)}</span></button></form>`
            : '';
          return `<tr>${td(t.invoice, `<a href="/app/invoices/${esc(p.invoice_id)}">${esc(p.invoice_number)}</a>`)}${td(
            t.amountToBook,
            esc(money(ctx.lang, p.amount)),
          )}${td(t.openAmount, esc(money(ctx.lang, p.open_amount)))}${td(
            t.confidence,
            `<span class="badge${p.confidence >= 0.9 ? '' : p.confidence >= 0.7 ? ' off' : ' bad'}">${esc(percent(ctx.lang, p.confidence))}</span>`,
          )}${td(t.why, reasons)}${act ? `<td>${confirm}</td>` : ''}</tr>`;
        })
        .join('');
      const heads = [t.invoice, t.amountToBook, t.openAmount, t.confidence, t.why].map((h) => `<th scope="col">${esc(h)}</th>`).join('');
      proposals = `<h4 class="sr-only">${esc(t.proposals)}</h4><div class="table-wrap" tabindex="0"><table class="cards"><caption class="sr-only">${esc(
        `${t.proposals}: ${fill(t.line, { id: String(e.id) })}`,
      )}</caption><thead><tr>${heads}${act ? `<th scope="col"><span class="sr-only">${esc(t.confirm)}</span></th>` : ''}</tr></thead><tbody>${rows}</tbody></table></div>`;
    } else if (e.type === 'credit' && bookable(e)) {
      proposals = `<p class="muted">${esc(t.noProposal)}</p>`;
    }
    const actions = act
      ? `<div class="row-actions actions"><a class="button secondary" href="${base}/correct">${esc(t.correct)}</a>${
          e.state === 'open'
            ? `<form method="post" action="${base}/ignore">${csrfField(ctx)}<button type="submit" class="secondary">${esc(t.ignore)}</button></form>`
            : ''
        }</div>`
      : canAct(ctx) && e.state === 'open' && e.type === 'debit'
        ? `<div class="row-actions actions"><form method="post" action="${base}/ignore">${csrfField(ctx)}<button type="submit" class="secondary">${esc(t.ignore)}</button></form></div>`
        : '';
    return `<article class="card" id="entry-${esc(e.id)}" aria-labelledby="entry-h-${esc(e.id)}"><h3 id="entry-h-${esc(e.id)}">${esc(entryTitle(ctx, e))}</h3>
<p>${esc(kind)} ${stateBadge}</p>${factTable(facts)}${proposals}${actions}</article>`;
  }

  router.get('/bank-statements/:id', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (!ctx) return;
    const t = bt(ctx);
    if (!ID.test(req.params.id)) return notFound(res, ctx, t.notFound);
    const state = STATES.find((s) => s === req.query.state);
    const page = pageParam(req.query.page);
    const found = await kit.api(
      'GET',
      `/bank-statements/${encodeURIComponent(req.params.id)}${query({ page, limit: ENTRY_LIMIT, state })}`,
      undefined,
      kit.asMember(req, res, ctx.s),
      BankStatementDetail,
    );
    if (!found.ok)
      return found.status === 404
        ? notFound(res, ctx, t.notFound)
        : kit.render(res, ctx, {
            status: statusOf(found),
            title: t.statement,
            current,
            body: '',
            message: { kind: 'error', text: problemText(ctx, found) },
          });
    const st = found.body;
    const message = await kit.takeFlash(req, res);
    const open = Math.max(0, st.credits - st.confirmed - st.ignored);
    const summary = `<section class="card" aria-labelledby="st-h"><h2 id="st-h">${esc(st.filename ?? st.message_id)}</h2>${factTable([
      [t.importedAt, esc(dateTime(ctx.lang, st.created_at))],
      [t.account, st.statements.map((s) => `${esc(ibanGroups(s.account_iban))} <span class="muted">(${esc(s.id)})</span>`).join('<br>')],
      [t.messageId, `<code>${esc(st.message_id)}</code> · ${esc(t.camtVersion)} ${esc(st.camt_version)}`],
      [t.entries, `${esc(st.entries_total)} (${esc(t.credits)}: ${esc(st.credits)}, ${esc(t.debits)}: ${esc(st.debits)})`],
      [
        t.credits,
        `${esc(st.credits_with_proposals)} ${esc(t.withProposals)} · ${esc(st.confirmed)} ${esc(t.confirmed)} · ${esc(st.ignored)} ${esc(t.ignored)} · ${esc(open)} ${esc(t.open)}`,
      ],
    ])}</section>`;
    const filter = selectFilter({
      action: `/app/bank-statements/${st.id}`,
      name: 'state',
      label: t.stateFilter,
      button: t.show,
      options: [['', t.allStates], ...STATES.map((s): [string, string] => [s, t.states[s]!])],
      selected: state ?? '',
    });
    const entries = st.entries ?? [];
    const list = entries.length ? entries.map((e) => entryCard(ctx, st, e)).join('\n') : `<p class="muted">${esc(t.noEntries)}</p>`;
    const paging = pager(
      { page: st.page ?? page, limit: st.limit ?? ENTRY_LIMIT, total: st.total ?? entries.length },
      (p) => `/app/bank-statements/${st.id}${query({ state, page: p })}`,
      t,
    );
    kit.render(res, ctx, {
      title: t.statement,
      current,
      message,
      body: `${summary}<section class="rsec" aria-labelledby="entries-h"><h2 id="entries-h">${esc(t.entries)}</h2>${filter}${list}${paging}</section><p><a href="/app/bank-statements">${esc(t.backToList)}</a></p>`,
    });
  });

  // ---------------------------------------------------------------- correcting a proposal

  /** One entry: its line id is its place in the statement, so page `id` of size 1 is that entry. */
  async function loadEntry(req: Request, res: Response, ctx: Ctx, id: string, entryId: string) {
    const found = await kit.api(
      'GET',
      `/bank-statements/${encodeURIComponent(id)}${query({ page: entryId, limit: 1 })}`,
      undefined,
      kit.asMember(req, res, ctx.s),
      BankStatementDetail,
    );
    if (!found.ok) return { found };
    const entry = found.body.entries?.find((e) => String(e.id) === entryId);
    return { found, statement: found.body, entry };
  }

  async function correctPage(
    req: Request,
    res: Response,
    ctx: Ctx,
    status: number,
    message?: Flash,
    form?: { invoice_id: string; amount: string; date: string; q: string },
  ) {
    const t = bt(ctx);
    const { id, eid } = req.params as { id: string; eid: string };
    if (!ID.test(id) || !ID.test(eid)) return notFound(res, ctx, t.entryNotFound);
    if (!canAct(ctx)) return kit.refuse(res, ctx, { title: t.correctTitle, current });
    const loaded = await loadEntry(req, res, ctx, id, eid);
    if (!loaded.found.ok)
      return loaded.found.status === 404
        ? notFound(res, ctx, t.notFound)
        : kit.render(res, ctx, {
            status: statusOf(loaded.found),
            title: t.correctTitle,
            current,
            body: '',
            message: { kind: 'error', text: problemText(ctx, loaded.found) },
          });
    const e = loaded.entry;
    if (!e || !loaded.statement) return notFound(res, ctx, t.entryNotFound);
    const q = (form?.q ?? (typeof req.query.q === 'string' ? req.query.q : '')).trim().slice(0, 100);
    const searched = await kit.api(
      'GET',
      `/invoice/${query({ open: 'true', document_type: 'INVOICE', limit: 20, q: q || undefined })}`,
      undefined,
      kit.asMember(req, res, ctx.s),
      InvoicePage,
    );
    const picked = form?.invoice_id ?? String(e.proposals[0]?.invoice_id ?? '');
    const candidates = new Map<string, string>();
    for (const p of e.proposals)
      candidates.set(
        String(p.invoice_id),
        `${p.invoice_number} · ${t.openAmount} ${money(ctx.lang, p.open_amount)} · ${t.confidence} ${percent(ctx.lang, p.confidence)}`,
      );
    for (const inv of searched.ok ? searched.body.invoices : [])
      if (!candidates.has(String(inv.id)))
        candidates.set(
          String(inv.id),
          `${inv.invoice_number} · ${t.openAmount} ${money(ctx.lang, inv.open_amount)}${inv.due_date ? ` · ${fill(t.due, { date: day(ctx.lang, inv.due_date) })}` : ''}`,
        );
    const radios = [...candidates]
      .map(
        ([value, label], i) =>
          `<label for="inv-${i}"><input type="radio" id="inv-${i}" name="invoice_id" value="${esc(value)}"${value === picked ? ' checked' : ''} required>${esc(label)}</label>`,
      )
      .join('');
    const base = `/app/bank-statements/${esc(id)}/entries/${esc(eid)}`;
    const search = `<form class="stack wide" method="get" action="${base}/correct" role="search"><label for="q">${esc(t.search)}</label><input id="q" name="q" type="search" maxlength="100" value="${esc(q)}"><p class="actions"><button type="submit" class="secondary">${esc(t.searchButton)}</button></p></form>`;
    const body = `<section class="card"><h2>${esc(entryTitle(ctx, e))}</h2><p class="lead">${esc(t.correctLead)}</p>${
      e.remittance_information.length ? `<p>${esc(t.remittance)}: ${e.remittance_information.map((l) => esc(l)).join(' ')}</p>` : ''
    }${search}</section>
<section class="card"><form class="stack wide" method="post" action="${base}/confirm">${csrfField(ctx)}<input type="hidden" name="idem" value="${randomUUID()}"><input type="hidden" name="q" value="${esc(q)}">
<fieldset><legend>${esc(t.pickInvoice)}</legend>${radios ? `<div class="picks">${radios}</div>` : `<p class="muted">${esc(t.noOpenInvoices)}</p>`}</fieldset>
<label for="amount">${esc(t.amount)}</label><input id="amount" name="amount" inputmode="decimal" maxlength="16" autocomplete="off" value="${esc(form?.amount ?? '')}">
<label for="date">${esc(t.paymentDate)}</label><input id="date" name="date" type="date" value="${esc(form?.date ?? '')}">
<p class="actions"><button type="submit">${esc(t.book)}</button><a class="button secondary" href="/app/bank-statements/${esc(id)}">${esc(t.cancel)}</a></p></form></section>`;
    kit.render(res, ctx, { status, title: t.correctTitle, current, body, message });
  }

  router.get('/bank-statements/:id/entries/:eid/correct', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (ctx) await correctPage(req, res, ctx, 200, await kit.takeFlash(req, res));
  });

  /** "119,00", "1.234,56", "119.00" -> "119.00"; undefined for anything else. */
  const amountOf = (v: string): string | undefined => {
    const s = v.replace(/\s|€/g, '');
    const m = /^(\d{1,3}(?:[.,]?\d{3})*|\d+)(?:([.,])(\d{1,2}))?$/.exec(s);
    if (!m) return undefined;
    // a separator followed by three digits is a thousands separator; one or two digits after the last are the cents
    const whole = m[1]!.replace(/[.,]/g, '');
    if (whole.length > 12) return undefined;
    return `${whole}.${(m[3] ?? '00').padEnd(2, '0')}`;
  };
  /** "2026-11-26" or "26.11.2026" -> "2026-11-26" (a real day); undefined for anything else. */
  const dateOf = (v: string): string | undefined => {
    const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
    const german = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(v);
    const date = iso ? v : german ? `${german[3]}-${german[2]!.padStart(2, '0')}-${german[1]!.padStart(2, '0')}` : undefined;
    return date && !Number.isNaN(Date.parse(`${date}T00:00:00Z`)) && new Date(`${date}T00:00:00Z`).toISOString().startsWith(date)
      ? date
      : undefined;
  };

  router.post('/bank-statements/:id/entries/:eid/confirm', async (req, res) => {
    const ctx = await kit.signedIn(req, res, true);
    if (!ctx) return;
    const t = bt(ctx);
    const { id, eid } = req.params;
    if (!ID.test(id) || !ID.test(eid)) return notFound(res, ctx, t.entryNotFound);
    const apiPath = `/bank-statements/${encodeURIComponent(id)}/entries/${encodeURIComponent(eid)}/confirm`;
    if (!kit.may(ctx, 'POST', apiPath)) return kit.refuse(res, ctx, { title: t.statement, current });
    const form = {
      invoice_id: kit.field(req, 'invoice_id').trim(),
      amount: kit.field(req, 'amount').trim().slice(0, 32),
      date: kit.field(req, 'date').trim().slice(0, 10),
      q: kit.field(req, 'q').slice(0, 100),
    };
    const corrected = kit.field(req, 'amount') !== '' || kit.field(req, 'date') !== '' || req.body?.q !== undefined;
    const invalid = (text: string) => correctPage(req, res, ctx, 400, { kind: 'error', text }, form);
    if (form.invoice_id && !ID.test(form.invoice_id)) return invalid(t.invalidInvoice);
    if (corrected && !form.invoice_id) return invalid(t.invalidInvoice);
    const amount = form.amount ? amountOf(form.amount) : undefined;
    if (form.amount && !amount) return invalid(t.invalidAmount);
    const date = form.date ? dateOf(form.date) : undefined;
    if (form.date && !date) return invalid(t.invalidDate);
    const idem = kit.field(req, 'idem');
    const body = {
      ...(form.invoice_id ? { invoice_id: Number(form.invoice_id) } : {}),
      ...(amount ? { amount } : {}),
      ...(date ? { date } : {}),
    };
    const answer = await kit.api(
      'POST',
      apiPath,
      body,
      kit.asMember(req, res, ctx.s, IDEM.test(idem) ? idem : undefined),
      BankEntryChanged,
    );
    if (!answer.ok) {
      if (corrected) return correctPage(req, res, ctx, statusOf(answer), { kind: 'error', text: problemText(ctx, answer) }, form);
      return kit.redirectWith(req, res, `/app/bank-statements/${id}#entry-${eid}`, { kind: 'error', text: problemText(ctx, answer) });
    }
    const e = answer.body;
    const invoice = e.proposals.find((p) => p.invoice_id === e.payment?.invoice_id)?.invoice_number ?? String(e.payment?.invoice_id ?? '');
    await kit.redirectWith(req, res, `/app/bank-statements/${id}#entry-${eid}`, {
      kind: 'ok',
      text: answer.status === 201 ? fill(t.confirmedMsg, { invoice, amount: money(ctx.lang, e.payment?.amount) }) : t.confirmedBefore,
    });
  });

  router.post('/bank-statements/:id/entries/:eid/ignore', async (req, res) => {
    const ctx = await kit.signedIn(req, res, true);
    if (!ctx) return;
    const t = bt(ctx);
    const { id, eid } = req.params;
    if (!ID.test(id) || !ID.test(eid)) return notFound(res, ctx, t.entryNotFound);
    const apiPath = `/bank-statements/${encodeURIComponent(id)}/entries/${encodeURIComponent(eid)}/ignore`;
    if (!kit.may(ctx, 'POST', apiPath)) return kit.refuse(res, ctx, { title: t.statement, current });
    const answer = await kit.api('POST', apiPath, undefined, kit.asMember(req, res, ctx.s), BankEntryChanged);
    await kit.redirectWith(
      req,
      res,
      `/app/bank-statements/${id}#entry-${eid}`,
      answer.ok ? { kind: 'ok', text: fill(t.ignoredMsg, { id: eid }) } : { kind: 'error', text: problemText(ctx, answer) },
    );
  });
}

/** A raw call's JSON answer checked against the page's contract, like the kit's JSON calls (a mismatch is a 502). */
async function jsonAnswer<S extends z.ZodType>(r: globalThis.Response, schema: S): Promise<PageAnswer<z.output<S>>> {
  const text = await r.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (r.status >= 200 && r.status < 300) {
    const parsed = schema.safeParse(json);
    return parsed.success ? { ok: true, status: r.status, body: parsed.data } : { ok: false, status: 502, body: {} };
  }
  return { ok: false, status: r.status, body: json && typeof json === 'object' ? (json as Record<string, unknown>) : {} };
}
