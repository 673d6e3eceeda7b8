import { toDecimal } from '@inv/money';
import type { DownloadDoc } from '../db/downloads';
import type { ExportSettings } from '../db/export-config';
import type { ExportJobDoc } from '../db/export-jobs';
import type { EffectiveMappings } from '../domain/mapping-rules';

export const presentConfig = (c: ExportSettings) => ({
  consultant_number: c.consultantNumber ?? null,
  client_number: c.clientNumber ?? null,
  chart_of_accounts: c.chartOfAccounts,
  fiscal_year_start_month: c.fiscalYearStartMonth,
  account_length: c.accountLength,
});

export const presentMappings = (m: EffectiveMappings) => ({
  chart_of_accounts: m.chart,
  account_length: m.accountLength,
  mappings: m.rows.map((r) => ({
    tax_treatment: r.treatment,
    tax_rate: r.rate === null ? null : toDecimal(r.rate).dividedBy(100).toNumber(),
    label: r.rate === null ? r.label : `${r.label} ${r.rate} %`,
    account: r.account,
    is_default: r.isDefault,
  })),
  receivables_account: m.receivablesAccount,
  debtor_accounts: m.debtorAccounts,
  collective_debtor_account: m.collectiveDebtorAccount,
  bank_account: m.bankAccount,
  discount_account_standard: m.discountAccountStandard,
  discount_account_reduced: m.discountAccountReduced,
  discount_account_untaxed: m.discountAccountUntaxed,
  expense_account: m.expenseAccount,
});

export const presentJob = (j: ExportJobDoc) => ({
  job_id: j._id,
  id: j._id,
  task: j.task,
  status: j.status,
  progress: j.status === 'finished' ? 100 : j.progress,
  start_date: j.startDate,
  end_date: j.endDate,
  include_master_data: j.includeMasterData,
  include_documents: j.includeDocuments,
  only_new: j.onlyNew,
  ...(j.exchangeRates && Object.keys(j.exchangeRates).length ? { exchange_rates: j.exchangeRates } : {}),
  ...(j.status === 'failed' ? { error_message: j.errorMessage ?? 'the export failed' } : {}),
  ...(j.status === 'finished' && j.result ? { result: j.result } : {}),
  created_at: j.createdAt.toISOString(),
  started_at: j.startedAt?.toISOString() ?? null,
  finished_at: j.finishedAt?.toISOString() ?? null,
});

export const presentDownload = (d: DownloadDoc) => ({
  id: d.id,
  filename: d.filename,
  size: d.size,
  created_at: d.createdAt.toISOString(),
  job_id: d.jobId,
  period: { start: d.periodStart, end: d.periodEnd },
  invoice_count: d.invoiceCount,
});

/** GET /downloads/{id}/download: the presigned link, the ZIP's name and how long the link works. */
export const presentDownloadLink = (l: { url: string; filename: string; expiresInSeconds: number }) => ({
  url: l.url,
  filename: l.filename,
  expires_in: l.expiresInSeconds,
});
