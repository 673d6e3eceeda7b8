import type { Request, Response, Router } from 'express';
import { AccountMappings } from '@inv/contracts';
import { esc } from '../../kit/html';
import type { Ctx, PagesKit } from '../../kit/pages-kit';
import type { Flash } from '../../kit/sessions';
import { csrfInput, input, int, problemOf, select, statusOf, tx } from './common';
import type { SettingsTexts } from './texts';

const OTHER = [
  'receivables_account',
  'collective_debtor_account',
  'bank_account',
  'discount_account_standard',
  'discount_account_reduced',
  'discount_account_untaxed',
  'expense_account',
] as const;
type Other = (typeof OTHER)[number];
const TREATMENT = /^[a-z_]{1,40}$/;
const RATE = /^(0|1|0\.\d{1,6})$/;
/** Most rows the API takes in one save. */
const MAX_ROWS = 50;
type Form = Record<string, string>;

/**
 * The DATEV account mapping (GET/PUT /acctexp/mappings, POST /acctexp/mappings/reset): the revenue account of each
 * tax treatment and the other accounts the export books against. Permission `export`, like the exports.
 */
export function registerAccountMappingPages(router: Router, kit: PagesKit): void {
  const frame = { current: 'settings' as const, sub: 'datev' };
  const otherLabel = (t: SettingsTexts): Record<Other, string> => ({
    receivables_account: t.receivablesAccount,
    collective_debtor_account: t.collectiveDebtorAccount,
    bank_account: t.bankAccountLedger,
    discount_account_standard: t.discountStandard,
    discount_account_reduced: t.discountReduced,
    discount_account_untaxed: t.discountUntaxed,
    expense_account: t.expenseAccount,
  });

  async function accountsPage(req: Request, res: Response, ctx: Ctx, status: number, message?: Flash, form?: Form) {
    const t = tx(ctx);
    if (!kit.may(ctx, 'PUT', '/acctexp/mappings')) return kit.refuse(res, ctx, { ...frame, title: t.editAccounts });
    const got = await kit.api('GET', '/acctexp/mappings', undefined, kit.asMember(req, res, ctx.s), AccountMappings);
    if (!got.ok)
      return kit.render(res, ctx, {
        ...frame,
        status: statusOf(got),
        title: t.editAccounts,
        body: '',
        message: { kind: 'error', text: kit.problem(ctx, got) },
      });
    const m = got.body;
    const v = (name: string, current: string | number) => (form ? (form[name] ?? '') : String(current));
    const num = 'inputmode="numeric" pattern="[0-9]*" spellcheck="false"';
    const rows = m.mappings
      .slice(0, MAX_ROWS)
      .map(
        (r, i) =>
          `<div class="field"><input type="hidden" name="t${i}" value="${esc(r.tax_treatment)}"><input type="hidden" name="r${i}" value="${r.tax_rate === null ? '' : esc(r.tax_rate)}">${input(`a${i}`, r.label, v(`a${i}`, r.account), { required: true, maxlength: 9, attrs: num })}</div>`,
      )
      .join('\n');
    const labels = otherLabel(t);
    const others = OTHER.map(
      (k) => `<div class="field">${input(k, labels[k], v(k, m[k]), { required: true, maxlength: 9, attrs: num })}</div>`,
    ).join('\n');
    const debtors = select(
      'debtor_accounts',
      t.debtorAccounts,
      [
        ['per_customer', t.perCustomer],
        ['collective', t.collectiveMode],
      ],
      v('debtor_accounts', m.debtor_accounts),
    );
    kit.render(res, ctx, {
      ...frame,
      status,
      title: t.editAccounts,
      message,
      body: `<p class="lead">${esc(t.editAccountsLead.replace('{chart}', m.chart_of_accounts).replace('{length}', String(m.account_length)))}</p>
<section class="card"><form class="stack wide" method="post" action="/app/settings/datev/accounts">${csrfInput(ctx)}
<fieldset class="group"><legend>${esc(t.accounts)}</legend><div class="grid">${rows}</div></fieldset>
<fieldset class="group"><legend>${esc(t.otherAccounts)}</legend><div class="grid"><div class="field">${debtors}</div>${others}</div></fieldset>
<p class="actions"><button type="submit">${esc(t.save)}</button><a class="button secondary" href="/app/settings/datev">${esc(t.cancel)}</a></p></form></section>
<section class="card" aria-labelledby="reset-h"><h2 id="reset-h">${esc(t.resetAccounts)}</h2><p>${esc(t.resetAccountsText.replace('{chart}', m.chart_of_accounts))}</p><p class="actions"><a class="button secondary" href="/app/settings/datev/accounts/reset">${esc(t.resetAccounts)}</a></p></section>`,
    });
  }

  router.get('/settings/datev/accounts', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (ctx) await accountsPage(req, res, ctx, 200, await kit.takeFlash(req, res));
  });
  router.post('/settings/datev/accounts', async (req, res) => {
    const ctx = await kit.signedIn(req, res, true);
    if (!ctx) return;
    const t = tx(ctx);
    if (!kit.may(ctx, 'PUT', '/acctexp/mappings')) return kit.refuse(res, ctx, { ...frame, title: t.editAccounts });
    const form: Form = {};
    const mappings: { tax_treatment: string; tax_rate?: number; account: number | string }[] = [];
    for (let i = 0; i < MAX_ROWS; i++) {
      const treatment = kit.field(req, `t${i}`);
      if (!treatment) break;
      const rate = kit.field(req, `r${i}`);
      const account = kit.field(req, `a${i}`).slice(0, 20);
      form[`a${i}`] = account;
      if (!TREATMENT.test(treatment) || (rate && !RATE.test(rate))) continue; // not a row this page rendered
      mappings.push({ tax_treatment: treatment, ...(rate ? { tax_rate: Number(rate) } : {}), account: int(account) ?? account });
    }
    const body: Record<string, unknown> = { mappings };
    for (const k of OTHER) {
      form[k] = kit.field(req, k).slice(0, 20);
      if (form[k]!.trim()) body[k] = int(form[k]!);
    }
    form.debtor_accounts = kit.field(req, 'debtor_accounts');
    if (form.debtor_accounts === 'per_customer' || form.debtor_accounts === 'collective') body.debtor_accounts = form.debtor_accounts;
    const saved = await kit.api('PUT', '/acctexp/mappings', body, kit.asMember(req, res, ctx.s), AccountMappings);
    if (saved.ok) return kit.redirectWith(req, res, '/app/settings/datev', { kind: 'ok', text: t.accountsSaved });
    await accountsPage(
      req,
      res,
      ctx,
      statusOf(saved),
      { kind: 'error', text: problemOf(kit, ctx, saved, { ...otherLabel(t), mappings: t.accounts }) },
      form,
    );
  });
  router.get('/settings/datev/accounts/reset', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (!ctx) return;
    const t = tx(ctx);
    if (!kit.may(ctx, 'POST', '/acctexp/mappings/reset')) return kit.refuse(res, ctx, { ...frame, title: t.resetAccounts });
    kit.render(res, ctx, {
      ...frame,
      title: t.resetAccounts,
      body: `<div class="card narrow"><form method="post" action="/app/settings/datev/accounts/reset">${csrfInput(ctx)}<p class="lead">${esc(t.resetAccountsConfirm)}</p>
<p class="actions"><button type="submit" class="danger">${esc(t.resetAccounts)}</button> <a class="button secondary" href="/app/settings/datev/accounts">${esc(t.cancel)}</a></p></form></div>`,
    });
  });
  router.post('/settings/datev/accounts/reset', async (req, res) => {
    const ctx = await kit.signedIn(req, res, true);
    if (!ctx) return;
    const t = tx(ctx);
    if (!kit.may(ctx, 'POST', '/acctexp/mappings/reset')) return kit.refuse(res, ctx, { ...frame, title: t.resetAccounts });
    const done = await kit.api('POST', '/acctexp/mappings/reset', undefined, kit.asMember(req, res, ctx.s), AccountMappings);
    await kit.redirectWith(
      req,
      res,
      '/app/settings/datev',
      done.ok ? { kind: 'ok', text: t.accountsReset } : { kind: 'error', text: kit.problem(ctx, done) },
    );
  });
}
