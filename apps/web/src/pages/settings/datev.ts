import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import { AccountMappings, AcctExpConfig, CreatedJob, Download, DownloadLink, ExportJob, MessageBody } from '@inv/contracts';
import { esc, fill } from '../../kit/html';
import { td, type Ctx, type PagesKit } from '../../kit/pages-kit';
import type { Flash } from '../../kit/sessions';
import {
  bytes,
  checkbox,
  csrfInput,
  dateTime,
  day,
  facts,
  IDEM,
  idemInput,
  input,
  int,
  INT_ID,
  problemOf,
  select,
  sendPresigned,
  statusOf,
  table,
  tx,
} from './common';
import type { SettingsTexts } from './texts';

const DownloadList = z.array(Download);
const JOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Downloads shown on the page (the API answers all of them, newest first). */
const SHOWN_DOWNLOADS = 50;
const MAX_ZIP_BYTES = 2 * 1024 * 1024 * 1024;
type ConfigForm = Record<
  'consultant_number' | 'client_number' | 'chart_of_accounts' | 'fiscal_year_start_month' | 'account_length',
  string
>;
type ExportForm = { start_date: string; end_date: string; include_master_data: boolean; include_documents: boolean; only_new: boolean };

/**
 * DATEV: the consultant and client numbers, chart and account length (PUT /datev/config), the account mapping
 * (read here), exports for a period (POST /exports/job, then the job's page) and their ZIP files (/downloads).
 * Permission `export` (owners, admins, members); a viewer is refused by the API and told so here.
 */
export function registerDatevPages(router: Router, kit: PagesKit): void {
  const frame = { current: 'settings' as const, sub: 'datev' };
  const configLabels = (t: SettingsTexts) => ({
    consultant_number: t.consultantNumber,
    client_number: t.clientNumber,
    chart_of_accounts: t.chart,
    fiscal_year_start_month: t.fiscalYearStart,
    account_length: t.accountLength,
  });

  async function datevPage(
    req: Request,
    res: Response,
    ctx: Ctx,
    status: number,
    message?: Flash,
    forms: { config?: ConfigForm; exp?: ExportForm } = {},
  ) {
    const t = tx(ctx);
    if (!kit.may(ctx, 'GET', '/datev/config')) return kit.refuse(res, ctx, { ...frame, title: t.datev });
    const as = kit.asMember(req, res, ctx.s);
    const [config, mappings, downloads] = await Promise.all([
      kit.api('GET', '/datev/config', undefined, as, AcctExpConfig),
      kit.api('GET', '/acctexp/mappings', undefined, as, AccountMappings),
      kit.api('GET', '/downloads/', undefined, as, DownloadList),
    ]);
    if (!config.ok)
      return kit.render(res, ctx, {
        ...frame,
        status: statusOf(config),
        title: t.datev,
        body: '',
        message: { kind: 'error', text: kit.problem(ctx, config) },
      });
    const c = config.body;
    const canConfigure = kit.may(ctx, 'PUT', '/datev/config');
    const months = Array.from(
      { length: 12 },
      (_, i) =>
        [
          String(i + 1),
          new Date(Date.UTC(2026, i, 1)).toLocaleString(ctx.lang === 'de' ? 'de-DE' : 'en-GB', { month: 'long', timeZone: 'UTC' }),
        ] as const,
    );
    const cf: ConfigForm = forms.config ?? {
      consultant_number: c.consultant_number === null ? '' : String(c.consultant_number),
      client_number: c.client_number === null ? '' : String(c.client_number),
      chart_of_accounts: c.chart_of_accounts,
      fiscal_year_start_month: String(c.fiscal_year_start_month),
      account_length: String(c.account_length),
    };
    const configSection = `<section class="card" aria-labelledby="cfg-h"><h2 id="cfg-h">${esc(t.datevConfig)}</h2>${
      canConfigure
        ? `<form class="stack" method="post" action="/app/settings/datev/config">${csrfInput(ctx)}
${input('consultant_number', t.consultantNumber, cf.consultant_number, { type: 'number', attrs: 'min="1000" max="9999999" inputmode="numeric"', hint: t.consultantHint })}
${input('client_number', t.clientNumber, cf.client_number, { type: 'number', attrs: 'min="1" max="99999" inputmode="numeric"', hint: t.clientHint })}
${select(
  'chart_of_accounts',
  t.chart,
  [
    ['SKR03', 'SKR03'],
    ['SKR04', 'SKR04'],
  ],
  cf.chart_of_accounts,
)}
${select('fiscal_year_start_month', t.fiscalYearStart, months, cf.fiscal_year_start_month)}
${select(
  'account_length',
  t.accountLength,
  ['4', '5', '6', '7', '8'].map((n) => [n, n] as const),
  cf.account_length,
)}
<p class="actions"><button type="submit">${esc(t.save)}</button></p></form>`
        : facts(t.datevConfig, [
            [t.consultantNumber, esc(c.consultant_number ?? '')],
            [t.clientNumber, esc(c.client_number ?? '')],
            [t.chart, esc(c.chart_of_accounts)],
            [t.fiscalYearStart, esc(months[c.fiscal_year_start_month - 1]?.[1] ?? c.fiscal_year_start_month)],
            [t.accountLength, esc(c.account_length)],
          ])
    }</section>`;
    const m = mappings.ok ? mappings.body : undefined;
    const rate = (r: number | null) =>
      r === null
        ? ''
        : ` <span class="muted">${esc((r * 100).toLocaleString(ctx.lang === 'de' ? 'de-DE' : 'en-GB', { maximumFractionDigits: 2 }))} %</span>`;
    const mappingSection = m
      ? `<section class="card" aria-labelledby="map-h"><h2 id="map-h">${esc(t.accounts)}</h2><p class="muted">${esc(t.accountsLead)}</p>${facts(
          t.accounts,
          m.mappings.map((r) => [
            r.label,
            `<code>${esc(r.account)}</code>${rate(r.tax_rate)}${r.is_default ? '' : ` <span class="badge off">${esc(t.changed)}</span>`}`,
          ]),
        )}<h3>${esc(t.otherAccounts)}</h3>${facts(t.otherAccounts, [
          [t.receivablesAccount, `<code>${esc(m.receivables_account)}</code>`],
          [
            t.debtorAccounts,
            esc(
              m.debtor_accounts === 'per_customer' ? t.perCustomer : fill(t.collective, { account: String(m.collective_debtor_account) }),
            ),
          ],
          [t.bankAccountLedger, `<code>${esc(m.bank_account)}</code>`],
          [t.discountStandard, `<code>${esc(m.discount_account_standard)}</code>`],
          [t.discountReduced, `<code>${esc(m.discount_account_reduced)}</code>`],
          [t.discountUntaxed, `<code>${esc(m.discount_account_untaxed)}</code>`],
          [t.expenseAccount, `<code>${esc(m.expense_account)}</code>`],
        ])}${kit.may(ctx, 'PUT', '/acctexp/mappings') ? `<p class="actions"><a class="button secondary" href="/app/settings/datev/accounts">${esc(t.editAccounts)}</a></p>` : ''}</section>`
      : '';
    const canExport = kit.may(ctx, 'POST', '/exports/job');
    const now = new Date();
    const firstOfLast = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 10);
    const lastOfLast = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0)).toISOString().slice(0, 10);
    const ef: ExportForm = forms.exp ?? {
      start_date: firstOfLast,
      end_date: lastOfLast,
      include_master_data: true,
      include_documents: false,
      only_new: false,
    };
    const exportSection = canExport
      ? `<section class="card" aria-labelledby="exp-h"><h2 id="exp-h">${esc(t.newExport)}</h2><form class="stack" method="post" action="/app/settings/datev/exports">${csrfInput(ctx)}${idemInput()}
${input('start_date', t.startDate, ef.start_date, { type: 'date', required: true })}
${input('end_date', t.endDate, ef.end_date, { type: 'date', required: true })}
${checkbox('include_master_data', t.includeMasterData, ef.include_master_data)}${checkbox('include_documents', t.includeDocuments, ef.include_documents)}${checkbox('only_new', t.onlyNew, ef.only_new)}
<p class="actions"><button type="submit">${esc(t.startExport)}</button></p></form></section>`
      : '';
    const list = downloads.ok ? downloads.body : [];
    const canDelete = kit.may(ctx, 'DELETE', '/downloads/1');
    const rows = list
      .slice(0, SHOWN_DOWNLOADS)
      .map(
        (d) =>
          `<tr>${td(t.file, `<a class="file" href="/app/settings/datev/downloads/${d.id}" download>${esc(d.filename)}</a>`)}${td(t.period, `${day(ctx, d.period.start)} – ${day(ctx, d.period.end)}`)}${td(
            t.documents,
            esc(d.invoice_count),
          )}${td(t.size, esc(bytes(ctx, d.size)))}${td(t.created, dateTime(ctx, d.created_at))}${
            canDelete
              ? `<td><a href="/app/settings/datev/downloads/${d.id}/delete" aria-label="${esc(fill(t.deleteNamed, { name: d.filename }))}">${esc(t.delete)}</a></td>`
              : ''
          }</tr>`,
      );
    const downloadsSection = `<section class="card" aria-labelledby="files-h"><h2 id="files-h">${esc(t.downloads)}</h2>${
      !downloads.ok
        ? `<p class="msg error">${esc(kit.problem(ctx, downloads))}</p>`
        : list.length
          ? `${table(t.downloads, [t.file, t.period, t.documents, t.size, t.created, ...(canDelete ? [`sr:${t.actions}`] : [])], rows)}${list.length > SHOWN_DOWNLOADS ? `<p class="muted">${esc(fill(t.moreDownloads, { n: String(SHOWN_DOWNLOADS), total: String(list.length) }))}</p>` : ''}`
          : `<p class="muted">${esc(t.noDownloads)}</p>`
    }</section>`;
    kit.render(res, ctx, {
      ...frame,
      status,
      title: t.datev,
      message,
      body: `<p class="lead">${esc(t.datevLead)}</p>${exportSection}${downloadsSection}${configSection}${mappingSection}`,
    });
  }

  router.get('/settings/datev', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (ctx) await datevPage(req, res, ctx, 200, await kit.takeFlash(req, res));
  });
  router.post('/settings/datev/config', async (req, res) => {
    const ctx = await kit.signedIn(req, res, true);
    if (!ctx) return;
    const t = tx(ctx);
    if (!kit.may(ctx, 'PUT', '/datev/config')) return kit.refuse(res, ctx, { ...frame, title: t.datev });
    const form: ConfigForm = {
      consultant_number: kit.field(req, 'consultant_number').slice(0, 20),
      client_number: kit.field(req, 'client_number').slice(0, 20),
      chart_of_accounts: kit.field(req, 'chart_of_accounts').slice(0, 10),
      fiscal_year_start_month: kit.field(req, 'fiscal_year_start_month').slice(0, 4),
      account_length: kit.field(req, 'account_length').slice(0, 4),
    };
    const body: Record<string, unknown> = {};
    for (const k of ['consultant_number', 'client_number', 'fiscal_year_start_month', 'account_length'] as const)
      if (form[k].trim()) body[k] = int(form[k]);
    if (form.chart_of_accounts === 'SKR03' || form.chart_of_accounts === 'SKR04') body.chart_of_accounts = form.chart_of_accounts;
    const saved = await kit.api('PUT', '/datev/config', body, kit.asMember(req, res, ctx.s), AcctExpConfig);
    if (saved.ok) return kit.redirectWith(req, res, '/app/settings/datev', { kind: 'ok', text: t.datevSaved });
    await datevPage(req, res, ctx, statusOf(saved), { kind: 'error', text: problemOf(kit, ctx, saved, configLabels(t)) }, { config: form });
  });
  router.post('/settings/datev/exports', async (req, res) => {
    const ctx = await kit.signedIn(req, res, true);
    if (!ctx) return;
    const t = tx(ctx);
    if (!kit.may(ctx, 'POST', '/exports/job')) return kit.refuse(res, ctx, { ...frame, title: t.datev });
    const form: ExportForm = {
      start_date: kit.field(req, 'start_date').slice(0, 20),
      end_date: kit.field(req, 'end_date').slice(0, 20),
      include_master_data: kit.field(req, 'include_master_data') === '1',
      include_documents: kit.field(req, 'include_documents') === '1',
      only_new: kit.field(req, 'only_new') === '1',
    };
    const idem = kit.field(req, 'idem');
    const created = await kit.api(
      'POST',
      '/exports/job',
      { task: 'process_acctexp_export_job', ...form },
      kit.asMember(req, res, ctx.s, IDEM.test(idem) ? idem : undefined),
      CreatedJob,
    );
    if (created.ok && JOB_ID.test(created.body.job_id))
      return kit.redirectWith(req, res, `/app/settings/datev/jobs/${created.body.job_id}`, { kind: 'ok', text: t.exportStarted });
    if (created.ok) return kit.redirectWith(req, res, '/app/settings/datev', { kind: 'ok', text: t.exportStarted });
    await datevPage(
      req,
      res,
      ctx,
      statusOf(created),
      { kind: 'error', text: problemOf(kit, ctx, created, { start_date: t.startDate, end_date: t.endDate }) },
      { exp: form },
    );
  });
  router.get('/settings/datev/jobs/:id', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (!ctx) return;
    const t = tx(ctx);
    const back = `<p><a href="/app/settings/datev">${esc(t.backToDatev)}</a></p>`;
    if (!JOB_ID.test(req.params.id))
      return kit.render(res, ctx, {
        ...frame,
        status: 404,
        title: t.exportJob,
        body: back,
        message: { kind: 'error', text: t.jobNotFound },
      });
    const path = `/exports/job/${encodeURIComponent(req.params.id)}`;
    if (!kit.may(ctx, 'GET', path)) return kit.refuse(res, ctx, { ...frame, title: t.exportJob });
    const job = await kit.api('GET', path, undefined, kit.asMember(req, res, ctx.s), ExportJob);
    if (!job.ok)
      return kit.render(res, ctx, {
        ...frame,
        status: job.status === 404 ? 404 : statusOf(job),
        title: t.exportJob,
        body: back,
        message: { kind: 'error', text: job.status === 404 ? t.jobNotFound : kit.problem(ctx, job) },
      });
    const j = job.body;
    const flash = await kit.takeFlash(req, res);
    const badge = `<span class="badge${j.status === 'finished' ? '' : j.status === 'failed' ? ' bad' : ' off'}">${esc(t.jobStatus[j.status])}</span>`;
    const r = j.result;
    const files = r?.download_ids.length
      ? `<h2>${esc(t.downloads)}</h2><ul>${r.download_ids.map((id) => `<li><a href="/app/settings/datev/downloads/${id}" download>${esc(fill(t.downloadFile, { id: String(id) }))}</a></li>`).join('')}</ul>`
      : '';
    const running = j.status === 'queued' || j.status === 'started';
    kit.render(res, ctx, {
      ...frame,
      title: t.exportJob,
      message: flash,
      body: `<section class="card">${facts(t.exportJob, [
        [t.status, `${badge}${running ? ` <span class="muted">${esc(j.progress)} %</span>` : ''}`],
        [t.period, `${day(ctx, j.start_date)} – ${day(ctx, j.end_date)}`],
        [t.created, dateTime(ctx, j.created_at)],
        [t.finished, dateTime(ctx, j.finished_at)],
        ...(r ? ([[t.documents, esc(r.total_invoice_count)]] as [string, string][]) : []),
        ...(r?.error
          ? ([[t.note, esc(r.error.error_code === 'no_invoices_found' ? t.noInvoicesFound : r.error.message)]] as [string, string][])
          : []),
        ...(j.error_message ? ([[t.error, esc(j.error_message)]] as [string, string][]) : []),
      ])}${running ? `<p class="actions"><a class="button secondary" href="/app/settings/datev/jobs/${esc(j.job_id)}">${esc(t.refresh)}</a></p>` : ''}</section>${files}${back}`,
    });
  });
  router.get('/settings/datev/downloads/:id', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (!ctx) return;
    const t = tx(ctx);
    if (!INT_ID.test(req.params.id))
      return kit.render(res, ctx, {
        ...frame,
        status: 404,
        title: t.downloads,
        body: '',
        message: { kind: 'error', text: t.downloadNotFound },
      });
    const path = `/downloads/${encodeURIComponent(req.params.id)}/download`;
    if (!kit.may(ctx, 'GET', path)) return kit.refuse(res, ctx, { ...frame, title: t.downloads });
    const link = await kit.api('GET', path, undefined, kit.asMember(req, res, ctx.s), DownloadLink);
    if (!link.ok)
      return kit.render(res, ctx, {
        ...frame,
        status: link.status === 404 ? 404 : statusOf(link),
        title: t.downloads,
        body: `<p><a href="/app/settings/datev">${esc(t.backToDatev)}</a></p>`,
        message: { kind: 'error', text: link.status === 404 ? t.downloadNotFound : kit.problem(ctx, link) },
      });
    const type = link.body.filename.toLowerCase().endsWith('.csv') ? 'text/csv; charset=utf-8' : 'application/zip';
    const sent = await sendPresigned(res, link.body.url, {
      contentType: type,
      filename: link.body.filename,
      maxBytes: MAX_ZIP_BYTES,
      timeoutMs: 10 * 60_000,
    });
    if (!sent && !res.headersSent)
      kit.render(res, ctx, { ...frame, status: 502, title: t.downloads, body: '', message: { kind: 'error', text: t.downloadFailed } });
  });
  router.get('/settings/datev/downloads/:id/delete', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (!ctx) return;
    const t = tx(ctx);
    if (!INT_ID.test(req.params.id))
      return kit.render(res, ctx, {
        ...frame,
        status: 404,
        title: t.downloads,
        body: '',
        message: { kind: 'error', text: t.downloadNotFound },
      });
    if (!kit.may(ctx, 'DELETE', `/downloads/${req.params.id}`)) return kit.refuse(res, ctx, { ...frame, title: t.deleteDownload });
    const list = await kit.api('GET', '/downloads/', undefined, kit.asMember(req, res, ctx.s), DownloadList);
    const d = list.ok ? list.body.find((x) => String(x.id) === req.params.id) : undefined;
    if (!d)
      return kit.render(res, ctx, {
        ...frame,
        status: 404,
        title: t.deleteDownload,
        body: '',
        message: { kind: 'error', text: t.downloadNotFound },
      });
    kit.render(res, ctx, {
      ...frame,
      title: t.deleteDownload,
      body: `<div class="card narrow"><form method="post" action="/app/settings/datev/downloads/${d.id}/delete">${csrfInput(ctx)}<p class="lead">${esc(fill(t.deleteDownloadConfirm, { name: d.filename }))}</p>
<p class="actions"><button type="submit" class="danger">${esc(t.delete)}</button> <a class="button secondary" href="/app/settings/datev">${esc(t.cancel)}</a></p></form></div>`,
    });
  });
  router.post('/settings/datev/downloads/:id/delete', async (req, res) => {
    const ctx = await kit.signedIn(req, res, true);
    if (!ctx) return;
    const t = tx(ctx);
    if (!INT_ID.test(req.params.id))
      return kit.render(res, ctx, {
        ...frame,
        status: 404,
        title: t.downloads,
        body: '',
        message: { kind: 'error', text: t.downloadNotFound },
      });
    const path = `/downloads/${encodeURIComponent(req.params.id)}`;
    if (!kit.may(ctx, 'DELETE', path)) return kit.refuse(res, ctx, { ...frame, title: t.deleteDownload });
    const gone = await kit.api('DELETE', path, undefined, kit.asMember(req, res, ctx.s), MessageBody);
    await kit.redirectWith(
      req,
      res,
      '/app/settings/datev',
      gone.ok ? { kind: 'ok', text: t.downloadDeleted } : { kind: 'error', text: kit.problem(ctx, gone) },
    );
  });
}
