import { z } from 'zod';
import {
  AccountMappings,
  AccountMappingsUpdate,
  AcctExpConfig,
  AcctExpConfigUpdate,
  ApiKey,
  ApiKeyCreate,
  BankAccount,
  BankAccountInput,
  BankAccountUpdate,
  Company,
  CompanyLogo,
  CompanyProfileUpdate,
  CreatedApiKey,
  CreatedJob,
  Download,
  DownloadLink,
  ExportJob,
  ExportRequest,
  MessageBody,
  PaymentTerm,
  PaymentTermInput,
  PaymentTermUpdate,
  QuotaUsage,
  Template,
} from '@inv/contracts';
import {
  body,
  bodyErrors,
  commonErrors,
  conflict,
  intId,
  json,
  notFound,
  paginationHeaders,
  problem,
  strId,
  type Operation,
} from '../builder';

export function otherPaths(): Record<string, Record<string, unknown>> {
  const op = (tags: string[], o: Omit<Operation, 'tags'>): Operation => ({ tags, ...o });
  const t = ['Templates'];
  const c = ['Company'];
  const x = ['Accounting export'];
  const config = (alias: boolean) => ({
    get: op(x, {
      operationId: alias ? 'getDatevConfig' : 'getAcctExpConfig',
      summary: alias ? 'Get the export configuration (alias)' : 'Get the export configuration',
      responses: { 200: json(AcctExpConfig), ...commonErrors() },
    }),
    put: op(x, {
      operationId: alias ? 'updateDatevConfig' : 'updateAcctExpConfig',
      summary: alias ? 'Update the export configuration (alias)' : 'Update the export configuration',
      description: 'Only the fields sent change.',
      requestBody: body(AcctExpConfigUpdate, {
        consultant_number: 1001,
        client_number: 1,
        chart_of_accounts: 'SKR03',
        fiscal_year_start_month: 1,
      }),
      responses: { 200: json(AcctExpConfig.extend({ message: z.string() })), ...bodyErrors(), ...commonErrors() },
    }),
  });
  return {
    '/template/': {
      get: op(t, {
        operationId: 'listTemplates',
        summary: 'List PDF templates',
        responses: { 200: json(z.array(Template)), ...commonErrors() },
      }),
    },
    '/template/{id}': {
      parameters: [intId('id', 'template id')],
      get: op(t, {
        operationId: 'getTemplate',
        summary: 'Get a template',
        responses: { 200: json(Template), ...notFound(), ...commonErrors() },
      }),
    },
    '/company/': {
      get: op(c, {
        operationId: 'getCompany',
        summary: 'Get the company profile',
        description: 'The seller on invoices, with its bank accounts.',
        responses: { 200: json(Company), ...notFound(), ...commonErrors() },
      }),
      put: op(c, {
        operationId: 'updateCompany',
        summary: 'Update the company profile',
        description:
          'Only the fields sent change. ' +
          'The seller data of invoices finalized from now on; invoices finalized before keep the data they were issued with. ' +
          'E-invoices in EN 16931 formats (ZUGFeRD/Factur-X, XRechnung, Peppol) must identify the seller (BR-CO-26) by vat_id, ' +
          'seller_identifier (BT-29, e.g. a GLN with seller_identifier_scheme 0088) or registration_id (BT-30, with registration_id_scheme ' +
          'when the register has an ISO 6523 code): a Kleinunternehmer with only a tax_number sets one of the last two.',
        requestBody: body(CompanyProfileUpdate, {
          legal_name: 'Beispiel Software GmbH',
          address: { line1: 'Hauptstraße 5', postal_code: '80331', city: 'München', country_code: 'DE' },
          vat_id: 'DE123456789',
          registration_court: 'Amtsgericht München',
          registration_id: 'HRB 4711',
          managing_directors: ['Erika Mustermann'],
        }),
        responses: { 200: json(Company), ...notFound(), ...bodyErrors(), ...commonErrors() },
      }),
    },
    '/company/bank-accounts': {
      get: op(c, {
        operationId: 'listBankAccounts',
        summary: 'List bank accounts',
        description: 'The default one goes on invoices.',
        responses: { 200: json(z.object({ bank_accounts: z.array(BankAccount) })), ...commonErrors() },
      }),
      post: op(c, {
        operationId: 'addBankAccount',
        summary: 'Create a bank account',
        description: 'The IBAN is checked for country, length and check digits; the BIC is checked.',
        requestBody: body(BankAccountInput, {
          iban: 'DE89 3704 0044 0532 0130 00',
          bic: 'COBADEFFXXX',
          bank_name: 'Commerzbank',
          is_default: true,
        }),
        responses: {
          201: json(BankAccount.extend({ message: z.string() }), 'added'),
          ...conflict('the IBAN is already there (DUPLICATE_BANK_ACCOUNT) or 10 accounts (BANK_ACCOUNT_LIMIT_REACHED)'),
          ...bodyErrors(),
          ...commonErrors(),
        },
      }),
    },
    '/company/bank-accounts/{id}': {
      parameters: [intId('id', 'bank account id')],
      get: op(c, {
        operationId: 'getBankAccount',
        summary: 'Get a bank account',
        responses: { 200: json(BankAccount), ...notFound(), ...commonErrors() },
      }),
      put: op(c, {
        operationId: 'updateBankAccount',
        summary: 'Update a bank account',
        description: 'Changes it or makes it the default.',
        requestBody: body(BankAccountUpdate, { is_default: true }),
        responses: { 200: json(BankAccount.extend({ message: z.string() })), ...notFound(), ...bodyErrors(), ...commonErrors() },
      }),
      delete: op(c, {
        operationId: 'deleteBankAccount',
        summary: 'Delete a bank account',
        description: 'The default passes to the oldest one left; without any, validation reports BANK_ACCOUNT_REQUIRED.',
        responses: { 200: json(MessageBody), ...notFound(), ...commonErrors() },
      }),
    },
    '/company/logo': {
      put: op(c, {
        operationId: 'putCompanyLogo',
        summary: 'Upload the logo',
        description:
          'The letterhead logo: PNG or JPEG, at most 1 MiB; the raw image is the body. ' +
          'The type is taken from the content, not from Content-Type: anything but PNG or JPEG answers 415 UNSUPPORTED_LOGO_TYPE naming what was found; an unreadable image too. ' +
          'The upload is cut at the first byte past 1 MiB (413 LOGO_TOO_LARGE) and nothing is stored. The image is scaled into the letterhead box (at most 709 x 260 pixels, 60 x 22 mm at 300 dpi), ' +
          'EXIF orientation applied, transparency flattened onto white. Invoices finalized from now on carry it; PDFs already issued keep theirs.',
        requestBody: {
          required: true,
          content: {
            'image/png': { schema: { type: 'string', format: 'binary' } },
            'image/jpeg': { schema: { type: 'string', format: 'binary' } },
          },
        },
        responses: {
          200: json(CompanyLogo.omit({ url: true, expires_in: true }).extend({ message: z.string() })),
          ...notFound(),
          413: problem('over 1 MiB (LOGO_TOO_LARGE)'),
          415: problem('not a readable PNG or JPEG (UNSUPPORTED_LOGO_TYPE)'),
          ...commonErrors(),
        },
      }),
      get: op(c, {
        operationId: 'getCompanyLogo',
        summary: 'Get the logo link',
        description: 'A presigned link to the logo as stored (resized).',
        responses: { 200: json(CompanyLogo), ...notFound(), ...commonErrors() },
      }),
      delete: op(c, {
        operationId: 'deleteCompanyLogo',
        summary: 'Delete the logo',
        description: 'Invoices finalized from now on have none.',
        responses: { 200: json(MessageBody), ...notFound(), ...commonErrors() },
      }),
    },
    '/company/payment-terms': {
      get: op(c, {
        operationId: 'listCompanyPaymentTerms',
        summary: 'List payment terms',
        description: 'Also listed, shorter, under `/customer/payment-terms`.',
        responses: { 200: json(z.object({ payment_terms: z.array(PaymentTerm) })), ...commonErrors() },
      }),
      post: op(c, {
        operationId: 'createPaymentTerm',
        summary: 'Create a payment term',
        description:
          'Optionally with an early-payment discount (Skonto). ' +
          "At finalization the term gives the due date (BT-9: invoice date + days) and the payment terms text (BT-20) in the customer's language: your text_de/text_en with placeholders filled, " +
          'or a generated one naming the due date and the Skonto amount. XRechnung invoices with Skonto also carry the structured line #SKONTO#TAGE=n#PROZENT=p# (BR-DE-18). ' +
          "A customer's payment_term_id chooses the term; otherwise the company's default_payment_term_id applies. At most 50 terms.",
        requestBody: body(PaymentTermInput, { name: '2 % Skonto, 30 Tage netto', days: 30, discount: { percent: 2, days: 10 } }),
        responses: {
          201: json(PaymentTerm.extend({ message: z.string() }), 'created'),
          ...conflict('50 terms already (PAYMENT_TERM_LIMIT_REACHED)'),
          ...bodyErrors(),
          ...commonErrors(),
        },
      }),
    },
    '/company/payment-terms/{id}': {
      parameters: [intId('id', 'payment term id')],
      get: op(c, {
        operationId: 'getPaymentTerm',
        summary: 'Get a payment term',
        responses: { 200: json(PaymentTerm), ...notFound(), ...commonErrors() },
      }),
      put: op(c, {
        operationId: 'updatePaymentTerm',
        summary: 'Update a payment term',
        description:
          'Only the fields sent change; null removes discount, text_de or text_en. ' +
          'Invoices finalized before keep the due date and text they were issued with.',
        requestBody: body(PaymentTermUpdate, { days: 21, discount: null }),
        responses: { 200: json(PaymentTerm.extend({ message: z.string() })), ...notFound(), ...bodyErrors(), ...commonErrors() },
      }),
      delete: op(c, {
        operationId: 'deletePaymentTerm',
        summary: 'Delete a payment term',
        responses: {
          200: json(MessageBody),
          ...notFound(),
          ...conflict('used by customers (PAYMENT_TERM_IN_USE, `customers` counts them) or the company default (`is_default` true)'),
          ...commonErrors(),
          503: problem('customer-service could not be asked which customers use the term; retry (SERVICE_UNAVAILABLE)'),
        },
      }),
    },
    '/company/api-keys': {
      get: op(c, {
        operationId: 'listApiKeys',
        summary: 'List API keys',
        description:
          'Name, prefix, mode (`live` or `test`), created and last used; never the secret. A test key lists the same keys (read only).',
        responses: { 200: json(z.object({ api_keys: z.array(ApiKey) })), ...commonErrors() },
      }),
      post: op(c, {
        operationId: 'createApiKey',
        summary: 'Create an API key',
        description:
          'At most 10 active keys (both modes); the key carries the permissions of a role (default admin); the secret is shown once. ' +
          "`mode: test` creates a test key (`ak_test_…`): it works on every route exactly like a live key, on the company's test data only " +
          '(no quota, own invoice numbers, PDFs marked TEST, e-mails recorded instead of sent, webhooks only to endpoints created with a test key; ' +
          '`DELETE /test-data` wipes it). A test key cannot create or revoke keys (403 TEST_MODE_READ_ONLY).',
        requestBody: body(ApiKeyCreate, { name: 'ERP production', role: 'member' }),
        responses: {
          201: json(CreatedApiKey, 'created'),
          ...conflict('10 active keys (API_KEY_LIMIT_REACHED)'),
          ...bodyErrors(),
          ...commonErrors(),
          403: problem(
            'the company is not on the Pro plan (PLAN_REQUIRED), the role may not do this (FORBIDDEN), or the request used a test key (TEST_MODE_READ_ONLY)',
          ),
        },
      }),
    },
    '/company/api-keys/{key_id}': {
      parameters: [strId('key_id', 'API key id')],
      delete: op(c, {
        operationId: 'revokeApiKey',
        summary: 'Revoke an API key',
        description: 'Effective at once.',
        responses: { 200: json(MessageBody), ...notFound(), ...commonErrors() },
      }),
    },
    '/quota/': {
      get: op(['Quota'], {
        operationId: 'getQuota',
        summary: 'Get the quota',
        description: 'The plan, the finalizations used this month, the limit and the reset date.',
        responses: { 200: json(QuotaUsage), ...commonErrors() },
      }),
    },
    '/acctexp/config': config(false),
    '/datev/config': config(true),
    '/exports/job': {
      post: op(x, {
        operationId: 'startExport',
        summary: 'Start an accounting export',
        description:
          'A DATEV EXTF export. ' +
          'Exports the finalized invoices and credit notes whose invoice date lies in the period: an EXTF 700 Buchungsstapel (Windows-1252, one row per invoice and VAT rate), ' +
          'with include_master_data a Debitoren/Kreditoren file, with include_documents the PDFs and a Belegbilder document.xml. One ZIP per fiscal year ' +
          '(fiscal_year_start_month): a period across a boundary finishes with is_split true and split_reason "year_boundary". only_new leaves out what an earlier export contained. ' +
          "Valid received invoices are booked too (not one flagged duplicate_of); one in another currency than EUR in its currency with WKZ Umsatz, Kurs (units per 1 EUR) and Basis-Umsatz, the rate from the invoice's own EUR VAT figures (BT-6/BT-111) or else from exchange_rates: without either the job fails naming the invoice and currency. " +
          'Needs consultant_number and client_number (400 naming the missing one). The job runs in the background: poll GET /exports/job/{job_id}.',
        requestBody: body(ExportRequest, {
          task: 'process_acctexp_export_job',
          start_date: '2025-10-01',
          end_date: '2026-03-31',
          include_master_data: true,
          include_documents: false,
          only_new: false,
          exchange_rates: { GBP: '0.8412' },
        }),
        responses: { 201: json(CreatedJob, 'export job queued (Location: the job)'), ...bodyErrors(), ...commonErrors() },
      }),
    },
    '/exports/job/{job_id}': {
      parameters: [strId('job_id', 'export job id (uuid)')],
      get: op(x, {
        operationId: 'getExportJob',
        summary: 'Poll an export job',
        description:
          'status queued -> started -> finished | failed, progress 0-100; result when finished (result.error with error_code no_invoices_found when the period held nothing: no invoice, payment or received invoice), error_message when failed. An export books the invoices and credit notes by invoice date, the payments (and their Skonto) by payment date and the valid received invoices by their issue date.',
        responses: { 200: json(ExportJob), ...notFound(), ...commonErrors() },
      }),
    },
    '/acctexp/mappings': {
      get: op(x, {
        operationId: 'getAccountMappings',
        summary: 'List account mappings',
        description:
          'Revenue accounts per tax treatment and rate, the debtor settings, and the accounts of payments (bank), granted Skonto (per rate) and received invoices (expense account; creditors are 70000 + the supplier id at account length 4).',
        responses: { 200: json(AccountMappings), ...commonErrors() },
      }),
      put: op(x, {
        operationId: 'updateAccountMappings',
        summary: 'Save account mappings',
        description:
          'Saves the account assignments in one batch. ' +
          'The rows sent change (or, for standard/reduced at another rate, are added); the others stay. An unknown tax treatment or an account of the wrong length answers 400 naming the row, and nothing is saved.',
        requestBody: body(AccountMappingsUpdate, {
          mappings: [
            { tax_treatment: 'standard', tax_rate: 0.19, account: 8400 },
            { tax_treatment: 'intra_community', account: 8125 },
          ],
          debtor_accounts: 'per_customer',
          bank_account: 1200,
          expense_account: 4900,
        }),
        responses: { 200: json(AccountMappings.extend({ message: z.string() })), ...bodyErrors(), ...commonErrors() },
      }),
    },
    '/acctexp/mappings/reset': {
      post: op(x, {
        operationId: 'resetAccountMappings',
        summary: 'Reset account mappings',
        description: 'Restores the default account assignments of the configured chart (SKR03 or SKR04).',
        responses: { 200: json(AccountMappings.extend({ message: z.string() })), ...commonErrors() },
      }),
    },
    '/downloads/': {
      get: op(['Downloads'], {
        operationId: 'listDownloads',
        summary: 'List export files',
        description: 'Newest first (a bare JSON array).',
        responses: { 200: json(z.array(Download), 'OK', paginationHeaders), ...commonErrors() },
      }),
    },
    '/downloads/{id}/download': {
      parameters: [intId('id', 'download id')],
      get: op(['Downloads'], {
        operationId: 'getDownloadLink',
        summary: 'Get an export file link',
        description: 'A presigned link to an export ZIP, valid for `expires_in` seconds.',
        responses: { 200: json(DownloadLink), ...notFound(), ...commonErrors() },
      }),
    },
    '/downloads/{id}': {
      parameters: [intId('id', 'download id')],
      delete: op(['Downloads'], {
        operationId: 'deleteDownload',
        summary: 'Delete an export file',
        description: 'Deletes the record and the stored ZIP.',
        responses: { 200: json(MessageBody), ...notFound(), ...commonErrors() },
      }),
    },
  };
}
