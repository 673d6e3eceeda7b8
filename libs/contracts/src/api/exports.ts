import { z } from 'zod';
import { IsoDate } from './common';

/**
 * Accounting export (DATEV EXTF): account mappings, export jobs and their results. The published SDK
 * sends `process_datev_export_job`; the specification names it `process_acctexp_export_job`.
 */
export const EXPORT_TASKS = ['process_acctexp_export_job', 'process_datev_export_job'] as const;

/** The rows of the mapping table: one per tax treatment (and rate, for the domestic rates). */
export const MAPPING_TREATMENTS = [
  'standard',
  'reduced',
  'reverse_charge',
  'intra_community',
  'export_outside_eu',
  'exempt',
  'outside_scope',
] as const;
export const MappingTreatment = z.enum(MAPPING_TREATMENTS);
export type MappingTreatment = z.output<typeof MappingTreatment>;

/** Longest period one export may cover. */
export const MAX_EXPORT_YEARS = 10;

const Account = z.number().int().min(1).max(999_999_999);

/** Units of a currency per 1 EUR, as DATEV's Kurs holds it (at most 4 digits before and 6 after the decimal point). */
export const ExchangeRate = z
  .union([z.string().trim(), z.number()])
  .transform((v) => String(v))
  .pipe(
    z
      .string()
      .regex(
        /^\d{1,4}(\.\d{1,6})?$/,
        'units of the currency per 1 EUR as a decimal with at most 4 digits before and 6 after the point, e.g. "7.4604"',
      )
      .refine((v) => Number(v) > 0, 'must be more than 0'),
  );

export const ExchangeRates = z.record(z.string(), ExchangeRate).superRefine((rates, ctx) => {
  const codes = Object.keys(rates);
  if (codes.length > 50) ctx.addIssue({ code: 'custom', message: `at most 50 currencies (${codes.length} given)` });
  for (const code of codes.slice(0, 50)) {
    if (!/^[A-Z]{3}$/.test(code))
      ctx.addIssue({ code: 'custom', path: [code], message: 'the key must be an ISO 4217 currency code in capitals, e.g. DKK' });
    else if (code === 'EUR')
      ctx.addIssue({ code: 'custom', path: [code], message: 'EUR needs no rate: amounts in EUR are booked as they are' });
  }
});

export const ExportRequest = z
  .object({
    task: z
      .enum(EXPORT_TASKS)
      .meta({ description: '`process_acctexp_export_job` (specification) or `process_datev_export_job` (older SDKs)' }),
    start_date: IsoDate.meta({ description: 'first invoice date of the period (inclusive)' }),
    end_date: IsoDate.meta({ description: 'last invoice date of the period (inclusive); at most 10 years after start_date' }),
    include_master_data: z
      .boolean()
      .default(false)
      .meta({ description: 'add a Debitoren/Kreditoren file (category 16) for every customer in the batch' }),
    include_documents: z
      .boolean()
      .default(false)
      .meta({ description: "add each invoice's PDF and a Belegbilder document.xml; rows carry a Beleglink" }),
    only_new: z.boolean().default(false).meta({ description: 'only invoices and credit notes that no earlier export contained' }),
    exchange_rates: ExchangeRates.optional().meta({
      description:
        'rates for received invoices in another currency than EUR that do not state their VAT in EUR themselves (BT-6 EUR with BT-111): per ISO 4217 code, units of that currency per 1 EUR (quantity quotation, as the ECB reference rates and the monthly VAT conversion rates of the Federal Ministry of Finance are published), e.g. {"DKK": "7.4604"}. Such an invoice is booked in its currency with WKZ Umsatz, Kurs and Basis-Umsatz (EUR). Without a rate for it the export fails and names the invoice and currency; it never books a foreign amount as EUR.',
      example: { DKK: '7.4604', GBP: '0.8412' },
    }),
  })
  .meta({ id: 'ExportRequest' });
export type ExportRequest = z.output<typeof ExportRequest>;

export const ExportResult = z
  .object({
    download_ids: z.array(z.number().int()).meta({ description: 'one download (ZIP) per fiscal year' }),
    is_split: z.boolean().meta({
      description:
        'true when the documents fall into more than one fiscal year (one download each); a period across a boundary whose documents all fall into one year gives one download and false',
    }),
    split_reason: z.string().nullable().meta({ description: '`year_boundary` when is_split is true, else null' }),
    total_invoice_count: z.number().int().meta({ description: 'invoices and credit notes in the export' }),
    total_payment_count: z
      .number()
      .int()
      .optional()
      .meta({ description: 'payments in the export (a payment row, and a Skonto row when Skonto was granted)' }),
    total_supplier_invoice_count: z.number().int().optional().meta({ description: 'received (supplier) invoices in the export' }),
    error: z
      .object({ message: z.string(), error_code: z.literal('no_invoices_found') })
      .optional()
      .meta({ description: 'present when the period held nothing to export (the job still finishes)' }),
  })
  .meta({ id: 'ExportResult' });

export const ExportJob = z
  .object({
    job_id: z.string(),
    id: z.string(),
    task: z.string(),
    status: z.enum(['queued', 'started', 'finished', 'failed']),
    progress: z.number().int().min(0).max(100),
    start_date: z.string(),
    end_date: z.string(),
    include_master_data: z.boolean(),
    include_documents: z.boolean(),
    only_new: z.boolean(),
    exchange_rates: z.record(z.string(), z.string()).optional().meta({ description: 'the rates given with the request' }),
    error_message: z.string().optional().meta({ description: 'when failed' }),
    result: ExportResult.optional().meta({ description: 'when finished' }),
    created_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
  })
  .meta({
    id: 'ExportJob',
    example: {
      job_id: '5d0c1c2e-2b7a-4c38-9a57-0d7f3b2e9c11',
      id: '5d0c1c2e-2b7a-4c38-9a57-0d7f3b2e9c11',
      task: 'process_acctexp_export_job',
      status: 'finished',
      progress: 100,
      start_date: '2025-10-01',
      end_date: '2026-03-31',
      include_master_data: true,
      include_documents: false,
      only_new: false,
      result: { download_ids: [7, 8], is_split: true, split_reason: 'year_boundary', total_invoice_count: 214 },
      created_at: '2026-11-24T09:00:00.000Z',
      started_at: '2026-11-24T09:00:00.050Z',
      finished_at: '2026-11-24T09:00:00.420Z',
    },
  });

export const AccountMapping = z
  .object({
    tax_treatment: MappingTreatment,
    tax_rate: z
      .number()
      .nullable()
      .meta({ description: 'VAT rate as a fraction (0.19) for standard and reduced rows; null for the others' }),
    label: z.string(),
    account: z.number().int().meta({ description: 'revenue account (Gegenkonto); its length is the configured account_length' }),
    is_default: z.boolean().meta({ description: 'the account is the default of the configured chart' }),
  })
  .meta({ id: 'AccountMapping' });

export const AccountMappings = z
  .object({
    chart_of_accounts: z.enum(['SKR03', 'SKR04']),
    account_length: z.number().int(),
    mappings: z.array(AccountMapping),
    receivables_account: z
      .number()
      .int()
      .meta({ description: 'collective receivables account DATEV sums the debtors into (SKR03 1400, SKR04 1200)' }),
    debtor_accounts: z.enum(['per_customer', 'collective']).meta({
      description:
        '`per_customer`: the debtor account is derived from the customer number; `collective`: every row uses collective_debtor_account',
    }),
    collective_debtor_account: z.number().int().meta({ description: 'debtor account used in collective mode (account_length + 1 digits)' }),
    bank_account: z.number().int().meta({ description: 'payments: the bank account (Konto) against the debtor (SKR03 1200, SKR04 1800)' }),
    discount_account_standard: z
      .number()
      .int()
      .meta({ description: 'Skonto granted on 19 % revenue (SKR03 8736, SKR04 4736; automatic account, no BU key)' }),
    discount_account_reduced: z
      .number()
      .int()
      .meta({ description: 'Skonto granted on 7 % revenue (SKR03 8731, SKR04 4731; automatic account, no BU key)' }),
    discount_account_untaxed: z
      .number()
      .int()
      .meta({ description: 'Skonto granted on revenue without German VAT (SKR03 8730, SKR04 4730)' }),
    expense_account: z.number().int().meta({
      description:
        'received invoices: the expense account (Gegenkonto) against the creditor, with the input-tax BU key of the rate (9 = 19 %, 8 = 7 %); SKR03 4900, SKR04 6300',
    }),
  })
  .meta({ id: 'AccountMappings' });

export const AccountMappingsUpdate = z
  .object({
    mappings: z
      .array(
        z.object({
          tax_treatment: z.string().max(40).meta({ description: 'one of the rows GET /acctexp/mappings lists' }),
          tax_rate: z
            .number()
            .min(0)
            .max(1, {
              error: (iss) =>
                `must be a decimal fraction (0.19 = 19 %), not a percentage: ${String(iss.input)} % is ${Number(iss.input) / 100}`,
            })
            .nullable()
            .optional()
            .meta({ description: 'required for standard and reduced (0.19, 0.07); adds a row for another domestic rate' }),
          account: Account,
          // what GET /acctexp/mappings shows beside the row, so that a row read can be sent back as it is
          label: z.string().max(200).optional().meta({ description: 'read-only (as GET shows it): accepted and ignored' }),
          is_default: z.boolean().optional().meta({ description: 'read-only (as GET shows it): accepted and ignored' }),
        }),
      )
      .max(50)
      .optional(),
    receivables_account: Account.optional(),
    debtor_accounts: z.enum(['per_customer', 'collective']).optional(),
    collective_debtor_account: Account.optional(),
    bank_account: Account.optional(),
    discount_account_standard: Account.optional(),
    discount_account_reduced: Account.optional(),
    discount_account_untaxed: Account.optional(),
    expense_account: Account.optional(),
  })
  .meta({ id: 'AccountMappingsUpdate', description: 'batch save: the rows sent change, the others stay; one bad row saves nothing' });
export type AccountMappingsUpdate = z.output<typeof AccountMappingsUpdate>;
