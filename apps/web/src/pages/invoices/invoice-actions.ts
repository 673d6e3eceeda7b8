import { randomUUID } from 'node:crypto';
import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import {
  CreatedInvoice,
  CreatedJob,
  FINALIZE_TASK,
  Invoice,
  Job,
  PaymentMethod,
  PaymentRecorded,
  StatusChanged,
  Validation,
} from '@inv/contracts';
import { esc, fill } from '../../kit/html';
import type { Lang } from '../../kit/i18n';
import type { Ctx, PagesKit } from '../../kit/pages-kit';
import type { Flash } from '../../kit/sessions';
import type { InvoiceTexts } from './texts';
import { money, numberOf, refusal, statusOf, textsOf, today, validId, type InvoiceView } from './view';

const EmailQueued = z.object({ message: z.string(), email_id: z.string() });
const CustomerEmail = z.object({ id: z.number().int(), email: z.string().nullable() });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const JOB_ID = /^[\w-]{1,64}$/;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
/** How long finalizing is waited for before the page says it is still under way (the API holds the poll). */
const FINALIZE_WAIT_SECONDS = 10;
const MAX_RECIPIENTS = 10;

/**
 * A typed amount in the page's language as the API's decimal text ("1.190,50" in German, "1,190.50" in English, and
 * "119.5" or "119,5" in both); undefined for anything else (more than two decimals, letters, a sign).
 */
export function amountOf(lang: Lang, raw: string): string | undefined {
  const s = raw.replace(/[\s\u00a0€]/g, '');
  if (s.length > 20) return undefined;
  let plain: string | undefined;
  if (lang === 'de' && /^\d{1,3}(\.\d{3})+(,\d{1,2})?$/.test(s)) plain = s.replace(/\./g, '').replace(',', '.');
  else if (lang === 'en' && /^\d{1,3}(,\d{3})+(\.\d{1,2})?$/.test(s)) plain = s.replace(/,/g, '');
  else if (/^\d{1,12}([.,]\d{1,2})?$/.test(s)) plain = s.replace(',', '.');
  if (!plain || Number(plain) <= 0) return undefined;
  return plain;
}

/** An amount for a form field in the page's language, without grouping ("119,00"). */
const amountField = (lang: Lang, v: number | null) =>
  v === null
    ? ''
    : new Intl.NumberFormat(lang === 'de' ? 'de-DE' : 'en-GB', {
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
        useGrouping: false,
      }).format(v);

/** E-mail addresses typed into one field, separated by commas, semicolons or spaces. */
const addressesOf = (raw: string) =>
  raw
    .split(/[,;\s]+/)
    .map((a) => a.trim())
    .filter(Boolean);

/**
 * The invoice actions: finalize, send by e-mail, record a payment, create a credit note, cancel a draft. Each has a
 * page (a form or a question) and a POST that checks the role first (403 without calling the API), then makes the
 * API's one call with the form's idempotency key and goes back to the invoice with what happened.
 */
export function registerInvoiceActions(router: Router, kit: PagesKit, o: { notFound: (res: Response, ctx: Ctx) => void }): void {
  type Guarded = { ctx: Ctx; id: string; it: InvoiceTexts };
  /** Signed in, a valid id, and a role that may make the API call; else the page that says why (and undefined). */
  async function guard(
    req: Request,
    res: Response,
    post: boolean,
    method: 'POST',
    apiPath: (id: string) => string,
    title: (it: InvoiceTexts) => string,
  ) {
    const ctx = await kit.signedIn(req, res, post);
    if (!ctx) return undefined;
    const id = req.params.id;
    if (!validId(id)) {
      o.notFound(res, ctx);
      return undefined;
    }
    const it = textsOf(ctx);
    if (!kit.may(ctx, method, apiPath(id))) {
      kit.refuse(res, ctx, { title: title(it), current: 'invoices' });
      return undefined;
    }
    return { ctx, id, it } satisfies Guarded;
  }
  const load = async (req: Request, res: Response, g: Guarded) => {
    const found = await kit.api('GET', `/invoice/${encodeURIComponent(g.id)}`, undefined, kit.asMember(req, res, g.ctx.s), Invoice);
    if (found.ok) return found.body;
    if (found.status === 404 || found.status === 400) o.notFound(res, g.ctx);
    else
      kit.render(res, g.ctx, {
        status: statusOf(found),
        title: g.it.invoice,
        current: 'invoices',
        body: '',
        message: { kind: 'error', text: refusal(kit, g.ctx, found) },
      });
    return undefined;
  };
  const idemOf = (req: Request) => {
    const v = kit.field(req, 'idem');
    return UUID.test(v) ? v : undefined;
  };
  const hidden = (ctx: Ctx) =>
    `<input type="hidden" name="csrf" value="${esc(ctx.s.csrf)}"><input type="hidden" name="idem" value="${randomUUID()}">`;
  /** A form page of an invoice: its heading, the invoice's name and amounts, the form, a way back. */
  const formPage = (res: Response, g: Guarded, inv: InvoiceView, o2: { status?: number; title: string; body: string; message?: Flash }) =>
    kit.render(res, g.ctx, {
      status: o2.status ?? 200,
      title: o2.title,
      current: 'invoices',
      message: o2.message,
      body: `<p class="lead">${esc(`${g.it.docType[inv.document_type] ?? g.it.invoice} ${numberOf(g.it, inv)}`)} · ${esc(g.it.total)} ${esc(money(g.ctx.lang, inv.gross_amount, inv.currency))}${inv.open_amount !== null ? ` · ${esc(g.it.openAmount)} ${esc(money(g.ctx.lang, inv.open_amount, inv.currency))}` : ''}</p>
<div class="card">${o2.body}</div><p><a href="/app/invoices/${inv.id}">${esc(g.it.back)}</a></p>`,
    });

  // ---- finalize -------------------------------------------------------------------------------------------------
  const finalizePath = (id: string) => `/invoice/${id}/job`;
  async function finalizePage(
    req: Request,
    res: Response,
    g: Guarded,
    inv: InvoiceView,
    status = 200,
    message?: Flash,
    refused?: string[],
  ) {
    const { it } = g;
    const checked = await kit.api('GET', `/invoice/${inv.id}/validate`, undefined, kit.asMember(req, res, g.ctx.s), Validation);
    const v = checked.ok ? checked.body : undefined;
    const blocking = (v?.errors ?? []).filter((e) => e.rule !== 'VAT_OVERRIDE_REQUIRED');
    const list = (items: string[]) => `<ul class="errors">${items.map((m) => `<li>${esc(m)}</li>`).join('')}</ul>`;
    const problems = refused?.length ? refused : blocking.map((e) => e.message);
    const body = `<p>${esc(it.finalizeLead)}</p>
${problems.length ? `<p><strong>${esc(it.finalizeBlocked)}</strong></p>${list(problems)}` : ''}
${v?.warnings.length ? `<p><strong>${esc(it.finalizeWarnings)}</strong></p>${list(v.warnings.map((w) => w.message))}` : ''}
${
  inv.status === 'DRAFT' && blocking.length === 0
    ? `<form class="stack" method="post" action="/app/invoices/${inv.id}/finalize">${hidden(g.ctx)}
${v?.vat_override_required ? `<label class="check"><input type="checkbox" name="vat_override" value="yes"> ${esc(it.vatOverride)}</label>` : ''}
<p class="actions"><button type="submit">${esc(it.finalize)}</button></p></form>`
    : ''
}`;
    formPage(res, g, inv, { status, title: it.finalizeTitle, body, message });
  }
  router.get('/invoices/:id/finalize', async (req, res) => {
    const g = await guard(req, res, false, 'POST', finalizePath, (it) => it.finalizeTitle);
    if (!g) return;
    const inv = await load(req, res, g);
    if (inv) await finalizePage(req, res, g, inv, 200, await kit.takeFlash(req, res));
  });
  router.post('/invoices/:id/finalize', async (req, res) => {
    const g = await guard(req, res, true, 'POST', finalizePath, (it) => it.finalizeTitle);
    if (!g) return;
    const who = kit.asMember(req, res, g.ctx.s, idemOf(req));
    const body = { task: FINALIZE_TASK, ...(kit.field(req, 'vat_override') === 'yes' ? { vat_override_confirmed: true } : {}) };
    const started = await kit.api('POST', finalizePath(encodeURIComponent(g.id)), body, who, CreatedJob);
    const back = `/app/invoices/${g.id}`;
    if (!started.ok) {
      const inv = await load(req, res, g);
      if (!inv) return;
      const found = Array.isArray(started.body.errors) ? (started.body.errors as unknown[]) : [];
      const messages = found
        .map((e) => (e && typeof e === 'object' ? (e as Record<string, unknown>).message : undefined))
        .filter((m): m is string => typeof m === 'string')
        .slice(0, 20);
      return finalizePage(req, res, g, inv, statusOf(started), { kind: 'error', text: refusal(kit, g.ctx, started) }, messages);
    }
    const jobId = started.body.job_id;
    if (!JOB_ID.test(jobId)) return kit.redirectWith(req, res, back, { kind: 'ok', text: g.it.finalizing });
    const job = await kit.api(
      'GET',
      `/invoice/${encodeURIComponent(g.id)}/job/${encodeURIComponent(jobId)}?wait=${FINALIZE_WAIT_SECONDS}`,
      undefined,
      kit.asMember(req, res, g.ctx.s),
      Job,
    );
    if (job.ok && job.body.status === 'finished') return kit.redirectWith(req, res, back, { kind: 'ok', text: g.it.finalized });
    if (job.ok && job.body.status === 'failed')
      return kit.redirectWith(req, res, back, {
        kind: 'error',
        text: fill(g.it.finalizeFailed, { reason: (job.body.error_message ?? '').slice(0, 300) }),
      });
    await kit.redirectWith(req, res, back, { kind: 'ok', text: g.it.finalizing });
  });

  // ---- send by e-mail -------------------------------------------------------------------------------------------
  const sendPath = (id: string) => `/invoice/${id}/send_email`;
  type SendForm = { to: string; cc: string; subject: string; message: string; pdf: boolean; xml: boolean };
  async function sendPage(req: Request, res: Response, g: Guarded, inv: InvoiceView, status = 200, message?: Flash, form?: SendForm) {
    const { it } = g;
    let to = form?.to;
    if (to === undefined) {
      const c = await kit.api(
        'GET',
        `/customer/${encodeURIComponent(String(inv.customer_id))}`,
        undefined,
        kit.asMember(req, res, g.ctx.s),
        CustomerEmail,
      );
      to = c.ok ? (c.body.email ?? '') : '';
    }
    const f: SendForm = form ?? { to, cc: '', subject: '', message: '', pdf: true, xml: inv.invoice_format !== 'PDF' };
    const body = `<form class="stack wide" method="post" action="/app/invoices/${inv.id}/send">${hidden(g.ctx)}
<label for="to">${esc(it.recipients)}</label><input id="to" name="to" type="text" inputmode="email" autocomplete="email" required maxlength="2600" value="${esc(to)}">
<label for="cc">${esc(it.cc)}</label><input id="cc" name="cc" type="text" inputmode="email" maxlength="2600" value="${esc(f.cc)}">
<label for="subject">${esc(it.subjectOptional)}</label><input id="subject" name="subject" maxlength="200" value="${esc(f.subject)}">
<label for="message">${esc(it.messageOptional)}</label><textarea id="message" name="message" maxlength="10000" rows="8">${esc(f.message)}</textarea>
<fieldset><legend class="sr-only">${esc(it.attachments)}</legend><div class="checks">
<label><input type="checkbox" name="attach_pdf" value="yes"${f.pdf ? ' checked' : ''}>${esc(it.attachPdf)}</label>
${inv.invoice_format !== 'PDF' ? `<label><input type="checkbox" name="attach_xml" value="yes"${f.xml ? ' checked' : ''}>${esc(it.attachXml)}</label>` : ''}
</div></fieldset>
<p class="actions"><button type="submit">${esc(it.send)}</button></p></form>`;
    formPage(res, g, inv, { status, title: it.sendTitle, body, message });
  }
  router.get('/invoices/:id/send', async (req, res) => {
    const g = await guard(req, res, false, 'POST', sendPath, (it) => it.sendTitle);
    if (!g) return;
    const inv = await load(req, res, g);
    if (inv) await sendPage(req, res, g, inv);
  });
  router.post('/invoices/:id/send', async (req, res) => {
    const g = await guard(req, res, true, 'POST', sendPath, (it) => it.sendTitle);
    if (!g) return;
    const form: SendForm = {
      to: kit.field(req, 'to').slice(0, 2600),
      cc: kit.field(req, 'cc').slice(0, 2600),
      subject: kit.field(req, 'subject').trim().slice(0, 200),
      message: kit.field(req, 'message').slice(0, 10_000),
      pdf: kit.field(req, 'attach_pdf') === 'yes',
      xml: kit.field(req, 'attach_xml') === 'yes',
    };
    const to = addressesOf(form.to);
    const cc = addressesOf(form.cc);
    if (to.length === 0 || to.length + cc.length > MAX_RECIPIENTS || [...to, ...cc].some((a) => a.length > 254)) {
      const inv = await load(req, res, g);
      return inv && sendPage(req, res, g, inv, 400, { kind: 'error', text: g.it.badRecipients }, form);
    }
    const inv = await load(req, res, g);
    if (!inv) return;
    const body = {
      to,
      ...(cc.length ? { cc } : {}),
      ...(form.subject ? { subject: form.subject } : {}),
      ...(form.message.trim() ? { message: form.message } : {}),
      attach_pdf: form.pdf,
      ...(inv.invoice_format !== 'PDF' ? { attach_xml: form.xml } : {}),
    };
    const sent = await kit.api('POST', sendPath(encodeURIComponent(g.id)), body, kit.asMember(req, res, g.ctx.s, idemOf(req)), EmailQueued);
    if (sent.ok) return kit.redirectWith(req, res, `/app/invoices/${g.id}`, { kind: 'ok', text: g.it.emailQueued });
    await sendPage(req, res, g, inv, statusOf(sent), { kind: 'error', text: refusal(kit, g.ctx, sent) }, form);
  });

  // ---- record a payment -----------------------------------------------------------------------------------------
  const paymentPath = (id: string) => `/invoice/${id}/payments`;
  type PaymentForm = { amount: string; date: string; method: string; reference: string };
  function paymentPage(res: Response, g: Guarded, inv: InvoiceView, status = 200, message?: Flash, form?: PaymentForm) {
    const { it, ctx } = g;
    const f: PaymentForm = form ?? {
      amount: amountField(ctx.lang, inv.open_amount),
      date: today(),
      method: 'BANK_TRANSFER',
      reference: inv.invoice_number,
    };
    const methods = PaymentMethod.options
      .map((m) => `<option value="${m}"${m === f.method ? ' selected' : ''}>${esc(it.methods[m] ?? m)}</option>`)
      .join('');
    const body = `<form class="stack" method="post" action="/app/invoices/${inv.id}/payment">${hidden(ctx)}
<label for="amount">${esc(it.paymentAmount)}</label><input id="amount" name="amount" inputmode="decimal" required maxlength="20" value="${esc(f.amount)}">
<label for="date">${esc(it.paymentDate)}</label><input id="date" name="date" type="date" required value="${esc(f.date)}">
<label for="method">${esc(it.paymentMethod)}</label><select id="method" name="method">${methods}</select>
<label for="reference">${esc(it.paymentReference)}</label><input id="reference" name="reference" maxlength="200" value="${esc(f.reference)}">
<p class="actions"><button type="submit">${esc(it.record)}</button></p></form>`;
    formPage(res, g, inv, { status, title: it.paymentTitle, body, message });
  }
  router.get('/invoices/:id/payment', async (req, res) => {
    const g = await guard(req, res, false, 'POST', paymentPath, (it) => it.paymentTitle);
    if (!g) return;
    const inv = await load(req, res, g);
    if (inv) paymentPage(res, g, inv);
  });
  router.post('/invoices/:id/payment', async (req, res) => {
    const g = await guard(req, res, true, 'POST', paymentPath, (it) => it.paymentTitle);
    if (!g) return;
    const form: PaymentForm = {
      amount: kit.field(req, 'amount').slice(0, 40),
      date: kit.field(req, 'date').trim().slice(0, 10),
      method: kit.field(req, 'method'),
      reference: kit.field(req, 'reference').trim().slice(0, 200),
    };
    const amount = amountOf(g.ctx.lang, form.amount);
    const method = PaymentMethod.safeParse(form.method);
    const bad = !amount
      ? g.it.badAmount
      : !ISO_DAY.test(form.date)
        ? g.it.badDate
        : !method.success
          ? fill(g.it.checkFields, { fields: g.it.fields.method! })
          : undefined;
    if (bad || !amount || !method.success) {
      const inv = await load(req, res, g);
      return inv && paymentPage(res, g, inv, 400, { kind: 'error', text: bad ?? g.it.badAmount }, form);
    }
    const body = { amount, date: form.date, method: method.data, ...(form.reference ? { reference: form.reference } : {}) };
    const recorded = await kit.api(
      'POST',
      paymentPath(encodeURIComponent(g.id)),
      body,
      kit.asMember(req, res, g.ctx.s, idemOf(req)),
      PaymentRecorded,
    );
    if (recorded.ok)
      return kit.redirectWith(req, res, `/app/invoices/${g.id}`, {
        kind: 'ok',
        text: fill(g.it.paymentRecorded, { open: money(g.ctx.lang, recorded.body.open_amount) }),
      });
    const inv = await load(req, res, g);
    if (inv) paymentPage(res, g, inv, statusOf(recorded), { kind: 'error', text: refusal(kit, g.ctx, recorded) }, form);
  });

  // ---- credit note ----------------------------------------------------------------------------------------------
  const creditPath = (id: string) => `/invoice/${id}/credit-note`;
  type CreditForm = { kind: 'full' | 'amount'; amount: string };
  function creditPage(res: Response, g: Guarded, inv: InvoiceView, status = 200, message?: Flash, form?: CreditForm) {
    const { it, ctx } = g;
    const f: CreditForm = form ?? { kind: 'full', amount: '' };
    // a partial credit of an amount is one position at the invoice's VAT rate: the API takes it for one rate only
    const partial = inv.vat_breakdown.length <= 1;
    const body = `<p>${esc(it.creditLead)}</p><form class="stack" method="post" action="/app/invoices/${inv.id}/credit-note">${hidden(ctx)}
${
  partial
    ? `<fieldset><legend>${esc(it.creditKind)}</legend><div class="checks">
<label><input type="radio" name="kind" value="full"${f.kind === 'full' ? ' checked' : ''}>${esc(it.creditFull)}</label>
<label><input type="radio" name="kind" value="amount"${f.kind === 'amount' ? ' checked' : ''}>${esc(it.creditPartial)}</label>
</div></fieldset>
<label for="amount">${esc(it.creditAmount)}</label><input id="amount" name="amount" inputmode="decimal" maxlength="20" value="${esc(f.amount)}" aria-describedby="amount-hint"><p class="hint" id="amount-hint">${esc(it.creditAmountHint)}</p>`
    : `<input type="hidden" name="kind" value="full"><p>${esc(it.creditFullOnly)}</p>`
}
<p class="actions"><button type="submit">${esc(it.create)}</button></p></form>`;
    formPage(res, g, inv, { status, title: it.creditTitle, body, message });
  }
  router.get('/invoices/:id/credit-note', async (req, res) => {
    const g = await guard(req, res, false, 'POST', creditPath, (it) => it.creditTitle);
    if (!g) return;
    const inv = await load(req, res, g);
    if (inv) creditPage(res, g, inv);
  });
  router.post('/invoices/:id/credit-note', async (req, res) => {
    const g = await guard(req, res, true, 'POST', creditPath, (it) => it.creditTitle);
    if (!g) return;
    const form: CreditForm = {
      kind: kit.field(req, 'kind') === 'amount' ? 'amount' : 'full',
      amount: kit.field(req, 'amount').slice(0, 40),
    };
    const amount = form.kind === 'amount' ? amountOf(g.ctx.lang, form.amount) : undefined;
    if (form.kind === 'amount' && !amount) {
      const inv = await load(req, res, g);
      return inv && creditPage(res, g, inv, 400, { kind: 'error', text: g.it.badAmount }, form);
    }
    const created = await kit.api(
      'POST',
      creditPath(encodeURIComponent(g.id)),
      amount ? { amount } : {},
      kit.asMember(req, res, g.ctx.s, idemOf(req)),
      CreatedInvoice,
    );
    if (created.ok) return kit.redirectWith(req, res, `/app/invoices/${created.body.invoice_id}`, { kind: 'ok', text: g.it.creditCreated });
    const inv = await load(req, res, g);
    if (inv) creditPage(res, g, inv, statusOf(created), { kind: 'error', text: refusal(kit, g.ctx, created) }, form);
  });

  // ---- cancel a draft (a question first) ------------------------------------------------------------------------
  const cancelPath = (id: string) => `/invoice/${id}/cancel`;
  function cancelPage(res: Response, g: Guarded, inv: InvoiceView, status = 200, message?: Flash) {
    const { it, ctx } = g;
    const body = `<form method="post" action="/app/invoices/${inv.id}/cancel">${hidden(ctx)}
<p class="lead">${esc(fill(it.cancelConfirm, { number: numberOf(it, inv) }))}</p>
<p class="actions"><button type="submit" class="danger">${esc(it.cancelInvoice)}</button> <a class="button secondary" href="/app/invoices/${inv.id}">${esc(it.keep)}</a></p></form>`;
    formPage(res, g, inv, { status, title: it.cancelTitle, body, message });
  }
  router.get('/invoices/:id/cancel', async (req, res) => {
    const g = await guard(req, res, false, 'POST', cancelPath, (it) => it.cancelTitle);
    if (!g) return;
    const inv = await load(req, res, g);
    if (inv) cancelPage(res, g, inv);
  });
  router.post('/invoices/:id/cancel', async (req, res) => {
    const g = await guard(req, res, true, 'POST', cancelPath, (it) => it.cancelTitle);
    if (!g) return;
    const done = await kit.api(
      'POST',
      cancelPath(encodeURIComponent(g.id)),
      undefined,
      kit.asMember(req, res, g.ctx.s, idemOf(req)),
      StatusChanged,
    );
    if (done.ok) return kit.redirectWith(req, res, `/app/invoices/${g.id}`, { kind: 'ok', text: g.it.cancelDone });
    const inv = await load(req, res, g);
    if (inv) cancelPage(res, g, inv, statusOf(done), { kind: 'error', text: refusal(kit, g.ctx, done) });
  });
}
