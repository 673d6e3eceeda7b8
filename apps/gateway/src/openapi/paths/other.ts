import { z } from 'zod';
import { AcctExpConfig, AcctExpConfigUpdate, ApiKey, ApiKeyCreate, Company, CreatedApiKey, Download, MessageBody, QuotaUsage, Template } from '@inv/contracts';
import { body, bodyErrors, commonErrors, conflict, intId, json, notFound, planned, strId, type Operation } from '../builder';

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
    '/exports/job': { post: planned({ operationId: 'startExport', tags: x, summary: 'Start an accounting export (DATEV EXTF)', answers: 503 }) },
    '/exports/job/{job_id}': { parameters: [strId('job_id', 'export job id')], get: planned({ operationId: 'getExportJob', tags: x, summary: 'Poll an export job' }) },
    '/acctexp/mappings': {
      get: planned({ operationId: 'getAccountMappings', tags: x, summary: 'General-ledger account assignments' }),
      put: planned({ operationId: 'updateAccountMappings', tags: x, summary: 'Batch save account assignments' }),
    },
    '/acctexp/mappings/reset': { post: planned({ operationId: 'resetAccountMappings', tags: x, summary: 'Restore the default account assignments' }) },
    '/downloads/': { get: op(['Downloads'], { operationId: 'listDownloads', summary: 'Export files, newest first (a bare JSON array)', responses: { 200: json(z.array(Download)), ...commonErrors() } }) },
    '/downloads/{id}/download': { parameters: [intId('id', 'download id')], get: planned({ operationId: 'getDownloadLink', tags: ['Downloads'], summary: 'Presigned link to an export file' }) },
    '/downloads/{id}': { parameters: [intId('id', 'download id')], delete: planned({ operationId: 'deleteDownload', tags: ['Downloads'], summary: 'Delete an export file' }) },
  };
}
