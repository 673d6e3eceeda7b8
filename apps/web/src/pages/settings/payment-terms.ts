import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import { MessageBody, PaymentTerm } from '@inv/contracts';
import { esc, fill } from '../../kit/html';
import { td, type Ctx, type PagesKit } from '../../kit/pages-kit';
import type { Flash } from '../../kit/sessions';
import {
  csrfInput,
  decimal,
  facts,
  IDEM,
  idemInput,
  input,
  int,
  INT_ID,
  locale,
  orNull,
  problemOf,
  statusOf,
  table,
  textarea,
  tx,
  liveData,
  testReadOnlyNote,
} from './common';
import type { SettingsTexts } from './texts';

const PaymentTermList = z.object({ payment_terms: z.array(PaymentTerm) });
type Term = z.output<typeof PaymentTerm>;
type Form = { name: string; days: string; percent: string; discount_days: string; text_de: string; text_en: string };

/** Payment terms (due date and Skonto; BT-9, BT-20): list, add, change, delete. The default is chosen on the profile. */
export function registerPaymentTermPages(router: Router, kit: PagesKit): void {
  const frame = { current: 'settings' as const, sub: 'paymentTerms' };
  const labels = (t: SettingsTexts) => ({
    name: t.termName,
    days: t.termDays,
    'discount.percent': t.discountPercent,
    'discount.days': t.discountDays,
    discount: t.discount,
    text_de: t.termTextDe,
    text_en: t.termTextEn,
  });
  const percent = (ctx: Ctx, p: number) => `${p.toLocaleString(locale(ctx), { maximumFractionDigits: 2 })} %`;
  const summary = (ctx: Ctx, p: Term) => {
    const t = tx(ctx);
    return p.discount
      ? fill(t.termSummaryDiscount, {
          days: String(p.days),
          percent: percent(ctx, p.discount.percent),
          discountDays: String(p.discount.days),
        })
      : fill(t.termSummary, { days: String(p.days) });
  };
  const fields = (ctx: Ctx, f: Partial<Form>, prefix: string) => {
    const t = tx(ctx);
    return [
      input('name', t.termName, f.name, { required: true, maxlength: 100, id: `${prefix}name` }),
      input('days', t.termDays, f.days, {
        required: true,
        type: 'number',
        attrs: 'min="0" max="365" inputmode="numeric"',
        id: `${prefix}days`,
        hint: t.termDaysHint,
      }),
      `<fieldset><legend>${esc(t.discount)}</legend><span class="muted hint">${esc(t.discountHint)}</span>`,
      input('percent', t.discountPercent, f.percent, { attrs: 'inputmode="decimal"', maxlength: 6, id: `${prefix}percent` }),
      input('discount_days', t.discountDays, f.discount_days, {
        type: 'number',
        attrs: 'min="1" max="365" inputmode="numeric"',
        id: `${prefix}discount_days`,
      }),
      `</fieldset>`,
      textarea('text_de', t.termTextDe, f.text_de, { rows: 3, maxlength: 500, id: `${prefix}text_de`, hint: t.termTextHint }),
      textarea('text_en', t.termTextEn, f.text_en, { rows: 3, maxlength: 500, id: `${prefix}text_en` }),
    ].join('\n');
  };
  const formOf = (req: Request): Form => ({
    name: kit.field(req, 'name').slice(0, 200),
    days: kit.field(req, 'days').slice(0, 20),
    percent: kit.field(req, 'percent').slice(0, 20),
    discount_days: kit.field(req, 'discount_days').slice(0, 20),
    text_de: kit.field(req, 'text_de').slice(0, 1000),
    text_en: kit.field(req, 'text_en').slice(0, 1000),
  });
  const bodyOf = (f: Form) => ({
    name: f.name.trim(),
    days: int(f.days) ?? f.days,
    discount: f.percent.trim() || f.discount_days.trim() ? { percent: decimal(f.percent) ?? '', days: int(f.discount_days) ?? '' } : null,
    text_de: orNull(f.text_de),
    text_en: orNull(f.text_en),
  });

  async function listPage(req: Request, res: Response, ctx: Ctx, status: number, message?: Flash, form?: Form) {
    const t = tx(ctx);
    const listed = await kit.api('GET', '/company/payment-terms', undefined, kit.asMember(req, res, ctx.s), PaymentTermList);
    const terms = listed.ok ? listed.body.payment_terms : [];
    const canEdit = kit.may(ctx, 'POST', '/company/payment-terms') && liveData(ctx);
    const rows = terms.map(
      (p) =>
        `<tr>${td(t.termName, esc(p.name))}${td(t.termRule, esc(summary(ctx, p)))}${td(t.status, p.is_default ? `<span class="badge">${esc(t.defaultBadge)}</span>` : '')}${
          canEdit
            ? `<td><div class="row-actions"><a href="/app/settings/payment-terms/${p.id}" aria-label="${esc(fill(t.editNamed, { name: p.name }))}">${esc(t.edit)}</a><a href="/app/settings/payment-terms/${p.id}/delete" aria-label="${esc(fill(t.deleteNamed, { name: p.name }))}">${esc(t.delete)}</a></div></td>`
            : `<td><a href="/app/settings/payment-terms/${p.id}" aria-label="${esc(fill(t.showNamed, { name: p.name }))}">${esc(t.show)}</a></td>`
        }</tr>`,
    );
    const list = !listed.ok
      ? ''
      : terms.length
        ? table(t.paymentTerms, [t.termName, t.termRule, t.status, `sr:${t.actions}`], rows)
        : `<p class="muted">${esc(t.noPaymentTerms)}</p>`;
    const add = canEdit
      ? `<section class="card" aria-labelledby="add-h"><h2 id="add-h">${esc(t.addPaymentTerm)}</h2><form class="stack" method="post" action="/app/settings/payment-terms">${csrfInput(ctx)}${idemInput()}
${fields(ctx, form ?? {}, 'new-')}<p class="actions"><button type="submit">${esc(t.addPaymentTerm)}</button></p></form></section>`
      : '';
    kit.render(res, ctx, {
      ...frame,
      status: listed.ok ? status : statusOf(listed),
      title: t.paymentTerms,
      message: message ?? (listed.ok ? undefined : { kind: 'error', text: kit.problem(ctx, listed) }),
      body: `<p class="lead">${esc(t.paymentTermsLead)}</p>${testReadOnlyNote(ctx)}${list}${add}`,
    });
  }

  async function editPage(req: Request, res: Response, ctx: Ctx, id: string, status: number, message?: Flash, form?: Form) {
    const t = tx(ctx);
    const found = await kit.api(
      'GET',
      `/company/payment-terms/${encodeURIComponent(id)}`,
      undefined,
      kit.asMember(req, res, ctx.s),
      PaymentTerm,
    );
    if (!found.ok)
      return notFound(
        res,
        ctx,
        found.status === 404 ? 404 : statusOf(found),
        found.status === 404 ? t.paymentTermNotFound : kit.problem(ctx, found),
      );
    const p = found.body;
    const f: Form = form ?? {
      name: p.name,
      days: String(p.days),
      percent: p.discount ? p.discount.percent.toLocaleString(locale(ctx), { maximumFractionDigits: 2 }) : '',
      discount_days: p.discount ? String(p.discount.days) : '',
      text_de: p.text_de ?? '',
      text_en: p.text_en ?? '',
    };
    const canEdit = kit.may(ctx, 'PUT', `/company/payment-terms/${id}`) && liveData(ctx);
    const body = canEdit
      ? `<section class="card"><form class="stack" method="post" action="/app/settings/payment-terms/${p.id}">${csrfInput(ctx)}${fields(ctx, f, '')}
<p class="actions"><button type="submit">${esc(t.save)}</button><a class="button secondary" href="/app/settings/payment-terms">${esc(t.cancel)}</a></p></form></section>`
      : facts(t.paymentTerm, [
          [t.termName, esc(p.name)],
          [t.termRule, esc(summary(ctx, p))],
          [t.termTextDe, `<span class="pre">${esc(p.text_de ?? '')}</span>`],
          [t.termTextEn, `<span class="pre">${esc(p.text_en ?? '')}</span>`],
          [t.defaultBadge, esc(p.is_default ? t.yes : t.no)],
        ]);
    kit.render(res, ctx, {
      ...frame,
      status,
      title: t.paymentTerm,
      message,
      body: `${body}<p><a href="/app/settings/payment-terms">${esc(t.allPaymentTerms)}</a></p>`,
    });
  }
  const notFound = (res: Response, ctx: Ctx, status: number, text: string) =>
    kit.render(res, ctx, {
      ...frame,
      status,
      title: tx(ctx).paymentTerm,
      body: `<p><a href="/app/settings/payment-terms">${esc(tx(ctx).allPaymentTerms)}</a></p>`,
      message: { kind: 'error', text },
    });
  const badId = (res: Response, ctx: Ctx) => notFound(res, ctx, 404, tx(ctx).paymentTermNotFound);

  router.get('/settings/payment-terms', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (ctx) await listPage(req, res, ctx, 200, await kit.takeFlash(req, res));
  });
  router.post('/settings/payment-terms', async (req, res) => {
    const ctx = await kit.signedIn(req, res, true);
    if (!ctx) return;
    const t = tx(ctx);
    if (!kit.may(ctx, 'POST', '/company/payment-terms')) return kit.refuse(res, ctx, { ...frame, title: t.paymentTerms });
    const form = formOf(req);
    const idem = kit.field(req, 'idem');
    const created = await kit.api(
      'POST',
      '/company/payment-terms',
      bodyOf(form),
      kit.asMember(req, res, ctx.s, IDEM.test(idem) ? idem : undefined),
      PaymentTerm,
    );
    if (created.ok)
      return kit.redirectWith(req, res, '/app/settings/payment-terms', {
        kind: 'ok',
        text: fill(t.paymentTermAdded, { name: created.body.name }),
      });
    await listPage(req, res, ctx, statusOf(created), { kind: 'error', text: problemOf(kit, ctx, created, labels(t)) }, form);
  });
  router.get('/settings/payment-terms/:id', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (!ctx) return;
    if (!INT_ID.test(req.params.id)) return badId(res, ctx);
    await editPage(req, res, ctx, req.params.id, 200, await kit.takeFlash(req, res));
  });
  router.post('/settings/payment-terms/:id', async (req, res) => {
    const ctx = await kit.signedIn(req, res, true);
    if (!ctx) return;
    const t = tx(ctx);
    if (!INT_ID.test(req.params.id)) return badId(res, ctx);
    const path = `/company/payment-terms/${encodeURIComponent(req.params.id)}`;
    if (!kit.may(ctx, 'PUT', path)) return kit.refuse(res, ctx, { ...frame, title: t.paymentTerm });
    const form = formOf(req);
    const saved = await kit.api('PUT', path, bodyOf(form), kit.asMember(req, res, ctx.s), PaymentTerm);
    if (saved.ok)
      return kit.redirectWith(req, res, '/app/settings/payment-terms', {
        kind: 'ok',
        text: fill(t.paymentTermSaved, { name: saved.body.name }),
      });
    await editPage(req, res, ctx, req.params.id, statusOf(saved), { kind: 'error', text: problemOf(kit, ctx, saved, labels(t)) }, form);
  });
  router.get('/settings/payment-terms/:id/delete', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (!ctx) return;
    const t = tx(ctx);
    if (!INT_ID.test(req.params.id)) return badId(res, ctx);
    const path = `/company/payment-terms/${encodeURIComponent(req.params.id)}`;
    if (!kit.may(ctx, 'DELETE', path)) return kit.refuse(res, ctx, { ...frame, title: t.deletePaymentTerm });
    const found = await kit.api('GET', path, undefined, kit.asMember(req, res, ctx.s), PaymentTerm);
    if (!found.ok)
      return notFound(
        res,
        ctx,
        found.status === 404 ? 404 : statusOf(found),
        found.status === 404 ? t.paymentTermNotFound : kit.problem(ctx, found),
      );
    kit.render(res, ctx, {
      ...frame,
      title: t.deletePaymentTerm,
      body: `<div class="card narrow"><form method="post" action="/app/settings/payment-terms/${found.body.id}/delete">${csrfInput(ctx)}<p class="lead">${esc(fill(t.deletePaymentTermConfirm, { name: found.body.name }))}</p>
<p class="actions"><button type="submit" class="danger">${esc(t.delete)}</button> <a class="button secondary" href="/app/settings/payment-terms">${esc(t.cancel)}</a></p></form></div>`,
    });
  });
  router.post('/settings/payment-terms/:id/delete', async (req, res) => {
    const ctx = await kit.signedIn(req, res, true);
    if (!ctx) return;
    const t = tx(ctx);
    if (!INT_ID.test(req.params.id)) return badId(res, ctx);
    const path = `/company/payment-terms/${encodeURIComponent(req.params.id)}`;
    if (!kit.may(ctx, 'DELETE', path)) return kit.refuse(res, ctx, { ...frame, title: t.deletePaymentTerm });
    const gone = await kit.api('DELETE', path, undefined, kit.asMember(req, res, ctx.s), MessageBody);
    await kit.redirectWith(
      req,
      res,
      '/app/settings/payment-terms',
      gone.ok ? { kind: 'ok', text: t.paymentTermDeleted } : { kind: 'error', text: kit.problem(ctx, gone) },
    );
  });
}
