import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import { BankAccount, MessageBody } from '@inv/contracts';
import { esc, fill } from '../../kit/html';
import { td, type Ctx, type PagesKit } from '../../kit/pages-kit';
import type { Flash } from '../../kit/sessions';
import {
  checkbox,
  csrfInput,
  liveData,
  testReadOnlyNote,
  facts,
  IDEM,
  idemInput,
  input,
  INT_ID,
  problemOf,
  statusOf,
  table,
  tx,
} from './common';
import type { SettingsTexts } from './texts';

const BankAccountList = z.object({ bank_accounts: z.array(BankAccount) });
type Account = z.output<typeof BankAccount>;
type Form = { iban: string; bic: string; bank_name: string; account_holder: string; is_default: boolean };

/** The company's bank accounts (printed on invoices; the default one first): list, add, change, delete. */
export function registerBankAccountPages(router: Router, kit: PagesKit): void {
  const frame = { current: 'settings' as const, sub: 'bankAccounts' };
  const labels = (t: SettingsTexts) => ({ iban: t.iban, bic: t.bic, bank_name: t.bankName, account_holder: t.accountHolder });
  const fields = (t: SettingsTexts, f: Partial<Form>, prefix: string) =>
    [
      input('iban', t.iban, f.iban, { required: true, maxlength: 50, id: `${prefix}iban`, attrs: 'autocomplete="off" spellcheck="false"' }),
      input('bic', t.bic, f.bic, { maxlength: 11, id: `${prefix}bic`, hint: t.optional, attrs: 'spellcheck="false"' }),
      input('bank_name', t.bankName, f.bank_name, { maxlength: 100, id: `${prefix}bank_name`, hint: t.optional }),
      input('account_holder', t.accountHolder, f.account_holder, {
        maxlength: 200,
        id: `${prefix}account_holder`,
        hint: t.accountHolderHint,
      }),
      checkbox('is_default', t.defaultAccount, f.is_default ?? false),
    ].join('\n');
  const formOf = (req: Request): Form => ({
    iban: kit.field(req, 'iban').slice(0, 100),
    bic: kit.field(req, 'bic').slice(0, 50),
    bank_name: kit.field(req, 'bank_name').slice(0, 200),
    account_holder: kit.field(req, 'account_holder').slice(0, 400),
    is_default: kit.field(req, 'is_default') === '1',
  });

  async function listPage(req: Request, res: Response, ctx: Ctx, status: number, message?: Flash, form?: Form) {
    const t = tx(ctx);
    const listed = await kit.api('GET', '/company/bank-accounts', undefined, kit.asMember(req, res, ctx.s), BankAccountList);
    const accounts = listed.ok ? listed.body.bank_accounts : [];
    const canEdit = kit.may(ctx, 'POST', '/company/bank-accounts') && liveData(ctx);
    const rows = accounts.map(
      (a) =>
        `<tr>${td(t.iban, `<code>${esc(a.iban_formatted)}</code>`)}${td(t.bic, esc(a.bic ?? ''))}${td(t.bankName, esc(a.bank_name ?? ''))}${td(t.accountHolder, esc(a.account_holder ?? ''))}${td(
          t.status,
          a.is_default ? `<span class="badge">${esc(t.defaultBadge)}</span>` : '',
        )}${
          canEdit
            ? `<td><div class="row-actions"><a href="/app/settings/bank-accounts/${a.id}" aria-label="${esc(fill(t.editNamed, { name: a.iban_formatted }))}">${esc(t.edit)}</a><a href="/app/settings/bank-accounts/${a.id}/delete" aria-label="${esc(fill(t.deleteNamed, { name: a.iban_formatted }))}">${esc(t.delete)}</a></div></td>`
            : ''
        }</tr>`,
    );
    const list = !listed.ok
      ? ''
      : accounts.length
        ? table(t.bankAccounts, [t.iban, t.bic, t.bankName, t.accountHolder, t.status, ...(canEdit ? [`sr:${t.actions}`] : [])], rows)
        : `<p class="muted">${esc(t.noBankAccounts)}</p>`;
    const add = canEdit
      ? `<section class="card" aria-labelledby="add-h"><h2 id="add-h">${esc(t.addBankAccount)}</h2><form class="stack" method="post" action="/app/settings/bank-accounts">${csrfInput(ctx)}${idemInput()}
${fields(t, form ?? {}, 'new-')}<p class="actions"><button type="submit">${esc(t.addBankAccount)}</button></p></form></section>`
      : '';
    kit.render(res, ctx, {
      ...frame,
      status: listed.ok ? status : statusOf(listed),
      title: t.bankAccounts,
      message: message ?? (listed.ok ? undefined : { kind: 'error', text: kit.problem(ctx, listed) }),
      body: `<p class="lead">${esc(t.bankAccountsLead)}</p>${testReadOnlyNote(ctx)}${list}${add}`,
    });
  }

  async function editPage(req: Request, res: Response, ctx: Ctx, id: string, status: number, message?: Flash, form?: Form) {
    const t = tx(ctx);
    const found = await kit.api(
      'GET',
      `/company/bank-accounts/${encodeURIComponent(id)}`,
      undefined,
      kit.asMember(req, res, ctx.s),
      BankAccount,
    );
    if (!found.ok)
      return notFound(
        res,
        ctx,
        found.status === 404 ? 404 : statusOf(found),
        found.status === 404 ? t.bankAccountNotFound : kit.problem(ctx, found),
      );
    const a = found.body;
    const f: Form = form ?? {
      iban: a.iban_formatted,
      bic: a.bic ?? '',
      bank_name: a.bank_name ?? '',
      account_holder: a.account_holder ?? '',
      is_default: a.is_default,
    };
    const canEdit = kit.may(ctx, 'PUT', `/company/bank-accounts/${id}`) && liveData(ctx);
    const body = canEdit
      ? `<section class="card"><form class="stack" method="post" action="/app/settings/bank-accounts/${a.id}">${csrfInput(ctx)}${fields(t, f, '')}
<p class="actions"><button type="submit">${esc(t.save)}</button><a class="button secondary" href="/app/settings/bank-accounts">${esc(t.cancel)}</a></p></form></section>`
      : facts(t.bankAccount, [
          [t.iban, `<code>${esc(a.iban_formatted)}</code>`],
          [t.bic, esc(a.bic ?? '')],
          [t.bankName, esc(a.bank_name ?? '')],
          [t.accountHolder, esc(a.account_holder ?? '')],
          [t.defaultAccount, esc(a.is_default ? t.yes : t.no)],
        ]);
    kit.render(res, ctx, {
      ...frame,
      status,
      title: t.bankAccount,
      message,
      body: `${body}<p><a href="/app/settings/bank-accounts">${esc(t.allBankAccounts)}</a></p>`,
    });
  }
  const notFound = (res: Response, ctx: Ctx, status: number, text: string) =>
    kit.render(res, ctx, {
      ...frame,
      status,
      title: tx(ctx).bankAccount,
      body: `<p><a href="/app/settings/bank-accounts">${esc(tx(ctx).allBankAccounts)}</a></p>`,
      message: { kind: 'error', text },
    });
  const badId = (res: Response, ctx: Ctx) => notFound(res, ctx, 404, tx(ctx).bankAccountNotFound);
  const bodyOf = (f: Form) => ({
    iban: f.iban.trim(),
    ...(f.bic.trim() ? { bic: f.bic.trim() } : {}),
    ...(f.bank_name.trim() ? { bank_name: f.bank_name.trim() } : {}),
    ...(f.account_holder.trim() ? { account_holder: f.account_holder.trim() } : {}),
    // making an account the default moves it; no account stops being the default by itself (another one takes it)
    ...(f.is_default ? { is_default: true } : {}),
  });

  router.get('/settings/bank-accounts', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (ctx) await listPage(req, res, ctx, 200, await kit.takeFlash(req, res));
  });
  router.post('/settings/bank-accounts', async (req, res) => {
    const ctx = await kit.signedIn(req, res, true);
    if (!ctx) return;
    const t = tx(ctx);
    if (!kit.may(ctx, 'POST', '/company/bank-accounts')) return kit.refuse(res, ctx, { ...frame, title: t.bankAccounts });
    const form = formOf(req);
    const idem = kit.field(req, 'idem');
    const created = await kit.api(
      'POST',
      '/company/bank-accounts',
      bodyOf(form),
      kit.asMember(req, res, ctx.s, IDEM.test(idem) ? idem : undefined),
      BankAccount,
    );
    if (created.ok)
      return kit.redirectWith(req, res, '/app/settings/bank-accounts', {
        kind: 'ok',
        text: fill(t.bankAccountAdded, { iban: created.body.iban_formatted }),
      });
    await listPage(req, res, ctx, statusOf(created), { kind: 'error', text: problemOf(kit, ctx, created, labels(t)) }, form);
  });
  router.get('/settings/bank-accounts/:id', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (!ctx) return;
    if (!INT_ID.test(req.params.id)) return badId(res, ctx);
    await editPage(req, res, ctx, req.params.id, 200, await kit.takeFlash(req, res));
  });
  router.post('/settings/bank-accounts/:id', async (req, res) => {
    const ctx = await kit.signedIn(req, res, true);
    if (!ctx) return;
    const t = tx(ctx);
    if (!INT_ID.test(req.params.id)) return badId(res, ctx);
    const path = `/company/bank-accounts/${encodeURIComponent(req.params.id)}`;
    if (!kit.may(ctx, 'PUT', path)) return kit.refuse(res, ctx, { ...frame, title: t.bankAccount });
    const form = formOf(req);
    const saved = await kit.api('PUT', path, bodyOf(form), kit.asMember(req, res, ctx.s), BankAccount);
    if (saved.ok)
      return kit.redirectWith(req, res, '/app/settings/bank-accounts', {
        kind: 'ok',
        text: fill(t.bankAccountSaved, { iban: saved.body.iban_formatted }),
      });
    await editPage(req, res, ctx, req.params.id, statusOf(saved), { kind: 'error', text: problemOf(kit, ctx, saved, labels(t)) }, form);
  });
  router.get('/settings/bank-accounts/:id/delete', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (!ctx) return;
    const t = tx(ctx);
    if (!INT_ID.test(req.params.id)) return badId(res, ctx);
    const path = `/company/bank-accounts/${encodeURIComponent(req.params.id)}`;
    if (!kit.may(ctx, 'DELETE', path)) return kit.refuse(res, ctx, { ...frame, title: t.deleteBankAccount });
    const found = await kit.api('GET', path, undefined, kit.asMember(req, res, ctx.s), BankAccount);
    if (!found.ok)
      return notFound(
        res,
        ctx,
        found.status === 404 ? 404 : statusOf(found),
        found.status === 404 ? t.bankAccountNotFound : kit.problem(ctx, found),
      );
    const a: Account = found.body;
    kit.render(res, ctx, {
      ...frame,
      title: t.deleteBankAccount,
      body: `<div class="card narrow"><form method="post" action="/app/settings/bank-accounts/${a.id}/delete">${csrfInput(ctx)}<p class="lead">${esc(fill(t.deleteBankAccountConfirm, { iban: a.iban_formatted }))}</p>
<p class="actions"><button type="submit" class="danger">${esc(t.delete)}</button> <a class="button secondary" href="/app/settings/bank-accounts">${esc(t.cancel)}</a></p></form></div>`,
    });
  });
  router.post('/settings/bank-accounts/:id/delete', async (req, res) => {
    const ctx = await kit.signedIn(req, res, true);
    if (!ctx) return;
    const t = tx(ctx);
    if (!INT_ID.test(req.params.id)) return badId(res, ctx);
    const path = `/company/bank-accounts/${encodeURIComponent(req.params.id)}`;
    if (!kit.may(ctx, 'DELETE', path)) return kit.refuse(res, ctx, { ...frame, title: t.deleteBankAccount });
    const gone = await kit.api('DELETE', path, undefined, kit.asMember(req, res, ctx.s), MessageBody);
    await kit.redirectWith(
      req,
      res,
      '/app/settings/bank-accounts',
      gone.ok ? { kind: 'ok', text: t.bankAccountDeleted } : { kind: 'error', text: kit.problem(ctx, gone) },
    );
  });
}
