import { z } from 'zod';
import {
  AccountMappings,
  AccountMappingsUpdate,
  AcctExpConfig,
  AcctExpConfigUpdate,
  ApiKey,
  ApiKeyCreate,
  Company,
  CreatedApiKey,
  CreatedJob,
  Download,
  DownloadLink,
  ExportJob,
  ExportRequest,
  MessageBody,
  QuotaUsage,
  Template,
} from '@inv/contracts';
import { body, bodyErrors, commonErrors, conflict, intId, json, notFound, paginationHeaders, strId, type Operation } from '../builder';

export function otherPaths(): Record<string, Record<string, unknown>> {
  const op = (tags: string[], o: Omit<Operation, 'tags'>): Operation => ({ tags, ...o });
  const t = ['Templates'];
  const c = ['Company'];
  const x = ['Accounting export'];
  const config = (alias: boolean) => ({
    get: op(x, { operationId: alias ? 'getDatevConfig' : 'getAcctExpConfig', summary: alias ? 'Accounting export configuration (older path of existing SDKs)' : 'Accounting export configuration', responses: { 200: json(AcctExpConfig), ...commonErrors() } }),
    put: op(x, {
      operationId: alias ? 'updateDatevConfig' : 'updateAcctExpConfig',
      summary: alias ? 'Update the accounting export configuration (older path)' : 'Update the accounting export configuration (only the fields sent change)',
      requestBody: body(AcctExpConfigUpdate, { consultant_number: 1001, client_number: 1, chart_of_accounts: 'SKR03', fiscal_year_start_month: 1 }),
      responses: { 200: json(AcctExpConfig.extend({ message: z.string() })), ...bodyErrors(), ...commonErrors() },
    }),
  });
  return {
    '/template/': { get: op(t, { operationId: 'listTemplates', summary: 'List PDF templates', responses: { 200: json(z.array(Template)), ...commonErrors() } }) },
    '/template/{id}': { parameters: [intId('id', 'template id')], get: op(t, { operationId: 'getTemplate', summary: 'Get a template', responses: { 200: json(Template), ...notFound(), ...commonErrors() } }) },
    '/company/': { get: op(c, { operationId: 'getCompany', summary: 'Company profile (the seller on invoices)', responses: { 200: json(Company), ...notFound(), ...commonErrors() } }) },
    '/company/api-keys': {
      get: op(c, { operationId: 'listApiKeys', summary: 'API keys (name, prefix, created, last used; never the secret)', responses: { 200: json(z.object({ api_keys: z.array(ApiKey) })), ...commonErrors() } }),
      post: op(c, { operationId: 'createApiKey', summary: 'Create an API key (at most 10 active); the secret is shown once', requestBody: body(ApiKeyCreate, { name: 'ERP production' }), responses: { 201: json(CreatedApiKey, 'created'), ...conflict('10 active keys (API_KEY_LIMIT_REACHED)'), ...bodyErrors(), ...commonErrors() } }),
    },
    '/company/api-keys/{key_id}': {
      parameters: [strId('key_id', 'API key id')],
      delete: op(c, { operationId: 'revokeApiKey', summary: 'Revoke an API key (effective at once)', responses: { 200: json(MessageBody), ...notFound(), ...commonErrors() } }),
    },
    '/quota/': { get: op(['Quota'], { operationId: 'getQuota', summary: 'Plan, finalizations used this month, the limit and the reset date', responses: { 200: json(QuotaUsage), ...commonErrors() } }) },
    '/acctexp/config': config(false),
    '/datev/config': config(true),
    '/exports/job': {
      post: op(x, {
        operationId: 'startExport',
        summary: 'Start an accounting export (DATEV EXTF)',
        description:
          'Exports the finalized invoices and credit notes whose invoice date lies in the period: an EXTF 700 Buchungsstapel (Windows-1252, one row per invoice and VAT rate), ' +
          'with include_master_data a Debitoren/Kreditoren file, with include_documents the PDFs and a Belegbilder document.xml. One ZIP per fiscal year ' +
          '(fiscal_year_start_month): a period across a boundary finishes with is_split true and split_reason "year_boundary". only_new leaves out what an earlier export contained. ' +
          'Needs consultant_number and client_number (400 naming the missing one). The job runs in the background: poll GET /exports/job/{job_id}.',
        requestBody: body(ExportRequest, { task: 'process_acctexp_export_job', start_date: '2025-10-01', end_date: '2026-03-31', include_master_data: true, include_documents: false, only_new: false }),
        responses: { 201: json(CreatedJob, 'export job queued (Location: the job)'), ...bodyErrors(), ...commonErrors() },
      }),
    },
    '/exports/job/{job_id}': {
      parameters: [strId('job_id', 'export job id (uuid)')],
      get: op(x, {
        operationId: 'getExportJob',
        summary: 'Poll an export job',
        description: 'status queued -> started -> finished | failed, progress 0-100; result when finished (result.error with error_code no_invoices_found when the period held nothing), error_message when failed.',
        responses: { 200: json(ExportJob), ...notFound(), ...commonErrors() },
      }),
    },
    '/acctexp/mappings': {
      get: op(x, { operationId: 'getAccountMappings', summary: 'Revenue accounts per tax treatment and rate, and the debtor settings', responses: { 200: json(AccountMappings), ...commonErrors() } }),
      put: op(x, {
        operationId: 'updateAccountMappings',
        summary: 'Batch save account assignments',
        description: 'The rows sent change (or, for standard/reduced at another rate, are added); the others stay. An unknown tax treatment or an account of the wrong length answers 400 naming the row, and nothing is saved.',
        requestBody: body(AccountMappingsUpdate, { mappings: [{ tax_treatment: 'standard', tax_rate: 0.19, account: 8400 }, { tax_treatment: 'intra_community', account: 8125 }], debtor_accounts: 'per_customer' }),
        responses: { 200: json(AccountMappings.extend({ message: z.string() })), ...bodyErrors(), ...commonErrors() },
      }),
    },
    '/acctexp/mappings/reset': {
      post: op(x, { operationId: 'resetAccountMappings', summary: 'Restore the default account assignments of the configured chart (SKR03 or SKR04)', responses: { 200: json(AccountMappings.extend({ message: z.string() })), ...commonErrors() } }),
    },
    '/downloads/': {
      get: op(['Downloads'], { operationId: 'listDownloads', summary: 'Export files, newest first (a bare JSON array)', responses: { 200: json(z.array(Download), 'OK', paginationHeaders), ...commonErrors() } }),
    },
    '/downloads/{id}/download': {
      parameters: [intId('id', 'download id')],
      get: op(['Downloads'], { operationId: 'getDownloadLink', summary: 'Presigned link to an export ZIP (valid for expires_in seconds)', responses: { 200: json(DownloadLink), ...notFound(), ...commonErrors() } }),
    },
    '/downloads/{id}': {
      parameters: [intId('id', 'download id')],
      delete: op(['Downloads'], { operationId: 'deleteDownload', summary: 'Delete an export file (the record and the stored ZIP)', responses: { 200: json(MessageBody), ...notFound(), ...commonErrors() } }),
    },
  };
}
