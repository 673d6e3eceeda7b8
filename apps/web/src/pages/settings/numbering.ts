import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import { EmailTexts, NUMBERING_PLACEHOLDERS, NumberingDocumentType, NumberingSequence } from '@inv/contracts';
import { esc, fill } from '../../kit/html';
import type { Ctx, PagesKit } from '../../kit/pages-kit';
import type { Flash } from '../../kit/sessions';
import { csrfInput, facts, input, int, problemOf, select, statusOf, textarea, tx } from './common';

const SequenceList = z.object({ sequences: z.array(NumberingSequence) });
type SeqForm = { pattern: string; reset: string; next_value: string };

/** Number sequences of invoices and credit notes (pattern, reset, next value) and the e-mail texts in German and English. */
export function registerNumberingPages(router: Router, kit: PagesKit): void {
  const frame = { current: 'settings' as const, sub: 'numbering' };

  async function numberingPage(
    req: Request,
    res: Response,
    ctx: Ctx,
    status: number,
    message?: Flash,
    failed?: { type: string; form: SeqForm },
  ) {
    const t = tx(ctx);
    const listed = await kit.api('GET', '/numbering/', undefined, kit.asMember(req, res, ctx.s), SequenceList);
    if (!listed.ok)
      return kit.render(res, ctx, {
        ...frame,
        status: statusOf(listed),
        title: t.numbering,
        body: '',
        message: { kind: 'error', text: kit.problem(ctx, listed) },
      });
    const resets = [
      ['never', t.resetNever],
      ['yearly', t.resetYearly],
      ['monthly', t.resetMonthly],
    ] as const;
    const sections = listed.body.sequences.map((q) => {
      const name = t.documentTypes[q.document_type];
      const canEdit = kit.may(ctx, 'PUT', `/numbering/${q.document_type}`);
      const f: SeqForm =
        failed?.type === q.document_type ? failed.form : { pattern: q.pattern, reset: q.reset, next_value: String(q.next_value) };
      const p = `${q.document_type}-`;
      const inner = canEdit
        ? `<form class="stack" method="post" action="/app/settings/numbering/${q.document_type}">${csrfInput(ctx)}
${input('pattern', t.pattern, f.pattern, { required: true, maxlength: 40, id: `${p}pattern`, hint: fill(t.patternHint, { placeholders: NUMBERING_PLACEHOLDERS.join(' ') }), attrs: 'spellcheck="false"' })}
${select('reset', t.reset, resets, f.reset, `${p}reset`)}
${input('next_value', t.nextValue, f.next_value, { required: true, type: 'number', attrs: 'min="1" max="999999999999" inputmode="numeric"', id: `${p}next_value`, hint: t.nextValueHint })}
<p class="actions"><button type="submit">${esc(fill(t.saveNamed, { name }))}</button></p></form>`
        : facts(name, [
            [t.pattern, `<code>${esc(q.pattern)}</code>`],
            [t.reset, esc(resets.find(([v]) => v === q.reset)?.[1] ?? q.reset)],
            [t.nextValue, esc(q.next_value)],
          ]);
      return `<section class="card" aria-labelledby="${p}h"><h2 id="${p}h">${esc(name)}</h2><p>${esc(t.nextNumber)}: <code>${esc(q.next_number)}</code></p>${inner}</section>`;
    });
    kit.render(res, ctx, {
      ...frame,
      status,
      title: t.numbering,
      message,
      body: `<p class="lead">${esc(t.numberingLead)}</p>${sections.join('')}`,
    });
  }

  router.get('/settings/numbering', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (ctx) await numberingPage(req, res, ctx, 200, await kit.takeFlash(req, res));
  });
  router.post('/settings/numbering/:type', async (req, res) => {
    const ctx = await kit.signedIn(req, res, true);
    if (!ctx) return;
    const t = tx(ctx);
    const type = NumberingDocumentType.safeParse(req.params.type);
    if (!type.success)
      return kit.render(res, ctx, {
        ...frame,
        status: 404,
        title: t.numbering,
        body: '',
        message: { kind: 'error', text: t.sequenceNotFound },
      });
    const path = `/numbering/${type.data}`;
    if (!kit.may(ctx, 'PUT', path)) return kit.refuse(res, ctx, { ...frame, title: t.numbering });
    const form: SeqForm = {
      pattern: kit.field(req, 'pattern').slice(0, 100),
      reset: kit.field(req, 'reset').slice(0, 20),
      next_value: kit.field(req, 'next_value').slice(0, 20),
    };
    const body = {
      pattern: form.pattern.trim(),
      ...(['never', 'yearly', 'monthly'].includes(form.reset) ? { reset: form.reset } : {}),
      ...(form.next_value.trim() ? { next_value: int(form.next_value) } : {}),
    };
    const saved = await kit.api('PUT', path, body, kit.asMember(req, res, ctx.s), NumberingSequence);
    if (saved.ok)
      return kit.redirectWith(req, res, '/app/settings/numbering', {
        kind: 'ok',
        text: fill(t.numberingSaved, { name: t.documentTypes[type.data], number: saved.body.next_number }),
      });
    await numberingPage(
      req,
      res,
      ctx,
      statusOf(saved),
      { kind: 'error', text: problemOf(kit, ctx, saved, { pattern: t.pattern, reset: t.reset, next_value: t.nextValue }) },
      { type: type.data, form },
    );
  });

  // E-mail texts: the subject and body of invoice e-mails per language (DELETE goes back to the defaults)
  const mailFrame = { current: 'settings' as const, sub: 'emailTexts' };
  type MailForm = { de_subject: string; de_body: string; en_subject: string; en_body: string };
  async function emailTextsPage(req: Request, res: Response, ctx: Ctx, status: number, message?: Flash, form?: MailForm) {
    const t = tx(ctx);
    const got = await kit.api('GET', '/invoice/email-texts', undefined, kit.asMember(req, res, ctx.s), EmailTexts);
    if (!got.ok)
      return kit.render(res, ctx, {
        ...mailFrame,
        status: statusOf(got),
        title: t.emailTexts,
        body: '',
        message: { kind: 'error', text: kit.problem(ctx, got) },
      });
    const m = got.body;
    const canEdit = kit.may(ctx, 'PUT', '/invoice/email-texts');
    const f: MailForm = form ?? { de_subject: m.de.subject, de_body: m.de.body, en_subject: m.en.subject, en_body: m.en.body };
    const placeholders = `<p class="muted">${esc(t.placeholders)}: ${m.placeholders.map((p) => `<code>${esc(p)}</code>`).join(' ')}</p>`;
    const lang = (l: 'de' | 'en') => {
      const name = l === 'de' ? t.german : t.english;
      const badge = m[l].is_default
        ? ` <span class="badge off">${esc(t.standardText)}</span>`
        : ` <span class="badge">${esc(t.ownText)}</span>`;
      const inner = canEdit
        ? `${input(`${l}_subject`, t.subject, f[`${l}_subject`], { required: true, maxlength: 200 })}${textarea(`${l}_body`, t.body, f[`${l}_body`], { rows: 10, maxlength: 10000 })}`
        : facts(name, [
            [t.subject, esc(m[l].subject)],
            [t.body, `<span class="pre">${esc(m[l].body)}</span>`],
          ]);
      return `<fieldset class="card" lang="${l}"><legend>${esc(name)}${badge}</legend>${inner}</fieldset>`;
    };
    const body = canEdit
      ? `<form class="stack wide" method="post" action="/app/settings/email-texts">${csrfInput(ctx)}${lang('de')}${lang('en')}
<p class="actions"><button type="submit">${esc(t.save)}</button>${m.de.is_default && m.en.is_default ? '' : `<a class="button secondary" href="/app/settings/email-texts/reset">${esc(t.resetTexts)}</a>`}</p></form>`
      : `${lang('de')}${lang('en')}`;
    kit.render(res, ctx, {
      ...mailFrame,
      status,
      title: t.emailTexts,
      message,
      body: `<p class="lead">${esc(t.emailTextsLead)}</p>${placeholders}${body}`,
    });
  }
  router.get('/settings/email-texts', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (ctx) await emailTextsPage(req, res, ctx, 200, await kit.takeFlash(req, res));
  });
  router.post('/settings/email-texts', async (req, res) => {
    const ctx = await kit.signedIn(req, res, true);
    if (!ctx) return;
    const t = tx(ctx);
    if (!kit.may(ctx, 'PUT', '/invoice/email-texts')) return kit.refuse(res, ctx, { ...mailFrame, title: t.emailTexts });
    const form: MailForm = {
      de_subject: kit.field(req, 'de_subject').slice(0, 400),
      de_body: kit.field(req, 'de_body').slice(0, 20_000),
      en_subject: kit.field(req, 'en_subject').slice(0, 400),
      en_body: kit.field(req, 'en_body').slice(0, 20_000),
    };
    const part = (subject: string, body: string) => ({
      ...(subject.trim() ? { subject: subject.trim() } : {}),
      ...(body.trim() ? { body: body.replace(/\r\n/g, '\n').trim() } : {}),
    });
    const saved = await kit.api(
      'PUT',
      '/invoice/email-texts',
      { de: part(form.de_subject, form.de_body), en: part(form.en_subject, form.en_body) },
      kit.asMember(req, res, ctx.s),
      EmailTexts,
    );
    if (saved.ok) return kit.redirectWith(req, res, '/app/settings/email-texts', { kind: 'ok', text: t.emailTextsSaved });
    const labels = {
      'de.subject': `${t.subject} (${t.german})`,
      'de.body': `${t.body} (${t.german})`,
      'en.subject': `${t.subject} (${t.english})`,
      'en.body': `${t.body} (${t.english})`,
    };
    await emailTextsPage(req, res, ctx, statusOf(saved), { kind: 'error', text: problemOf(kit, ctx, saved, labels) }, form);
  });
  router.get('/settings/email-texts/reset', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (!ctx) return;
    const t = tx(ctx);
    if (!kit.may(ctx, 'DELETE', '/invoice/email-texts')) return kit.refuse(res, ctx, { ...mailFrame, title: t.resetTexts });
    kit.render(res, ctx, {
      ...mailFrame,
      title: t.resetTexts,
      body: `<div class="card narrow"><form method="post" action="/app/settings/email-texts/reset">${csrfInput(ctx)}<p class="lead">${esc(t.resetTextsConfirm)}</p>
<p class="actions"><button type="submit" class="danger">${esc(t.resetTexts)}</button> <a class="button secondary" href="/app/settings/email-texts">${esc(t.cancel)}</a></p></form></div>`,
    });
  });
  router.post('/settings/email-texts/reset', async (req, res) => {
    const ctx = await kit.signedIn(req, res, true);
    if (!ctx) return;
    const t = tx(ctx);
    if (!kit.may(ctx, 'DELETE', '/invoice/email-texts')) return kit.refuse(res, ctx, { ...mailFrame, title: t.resetTexts });
    const gone = await kit.api('DELETE', '/invoice/email-texts', undefined, kit.asMember(req, res, ctx.s), EmailTexts);
    await kit.redirectWith(
      req,
      res,
      '/app/settings/email-texts',
      gone.ok ? { kind: 'ok', text: t.textsReset } : { kind: 'error', text: kit.problem(ctx, gone) },
    );
  });
}
