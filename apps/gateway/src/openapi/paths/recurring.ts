import { z } from 'zod';
import {
  MessageBody,
  RecurringInvoice,
  RecurringInvoiceCreate,
  RecurringInvoiceUpdate,
  RecurringListQuery,
  RecurringRun,
  RecurringRunsQuery,
} from '@inv/contracts';
import {
  body,
  bodyErrors,
  commonErrors,
  conflict,
  intId,
  notFound,
  paginationHeaders,
  queryParams,
  type Operation,
  jsonExample,
} from '../builder';

const createExample = {
  name: 'Office rent Musterstraße 1',
  template: {
    customer_id: 42,
    invoice_format: 'XRECHNUNG',
    buyer_reference: '04011000-12345-67',
    note: 'Rent as agreed in the lease of 2024-01-01.',
    meta: { contract: 'L-2024-007' },
    positions: [
      { title: 'Office rent', quantity: 1, unit_id: 'MON', unit_net_amount: 1200, tax_rate: 0.19 },
      { title: 'Service charge', quantity: 1, unit_id: 'MON', unit_net_amount: 150, tax_rate: 0.19 },
    ],
    email: { to: 'accounts-payable@customer.example', subject: 'Your rent invoice' },
  },
  schedule: { interval: 'monthly', day_of_month: 1, start_date: '2026-12-01', end_date: '2027-11-30' },
  auto_finalize: true,
  auto_send_email: true,
};

const recurringExample = {
  id: 1,
  ...createExample,
  status: 'active',
  paused_reason: null,
  next_run_date: '2027-01-01',
  last_run: {
    date: '2026-12-01',
    period_start: '2026-12-01',
    period_end: '2026-12-31',
    invoice_id: 311,
    outcome: 'sent',
    error: null,
  },
  created_at: '2026-11-27T09:12:44.120Z',
  updated_at: '2026-12-01T00:01:03.512Z',
};

export const pausedExample = {
  ...recurringExample,
  status: 'paused',
  paused_reason: 'quota_exceeded',
  next_run_date: '2027-01-01',
  last_run: {
    date: '2027-01-01',
    period_start: '2027-01-01',
    period_end: '2027-01-31',
    invoice_id: 388,
    outcome: 'quota_exceeded',
    error: '402 INVOICE_LIMIT_REACHED: monthly invoice limit of 3 reached; it resets on 2027-02-01',
  },
};

const runExample = {
  id: '1:2026-12-01',
  date: '2026-12-01',
  period_start: '2026-12-01',
  period_end: '2026-12-31',
  invoice_id: 311,
  outcome: 'sent',
  error: null,
  started_at: '2026-12-01T00:01:00.004Z',
  finished_at: '2026-12-01T00:01:03.512Z',
};

/** /recurring-invoices/ (recurring-service): invoice templates issued on a schedule. */
export function recurringPaths(): Record<string, Record<string, unknown>> {
  const r = (o: Omit<Operation, 'tags'>): Operation => ({ tags: ['Recurring invoices'], ...o });
  return {
    '/recurring-invoices/': {
      get: r({
        operationId: 'listRecurringInvoices',
        summary: 'List recurring invoices',
        description: 'Newest first; `status` filters.',
        parameters: queryParams(RecurringListQuery),
        responses: {
          200: jsonExample(
            z.object({
              recurring_invoices: z.array(RecurringInvoice),
              total: z.number().int(),
              page: z.number().int(),
              limit: z.number().int(),
            }),
            { recurring_invoices: [recurringExample], total: 1, page: 1, limit: 25 },
            'a page of recurring invoices',
            paginationHeaders,
          ),
          ...commonErrors(),
        },
      }),
      post: r({
        operationId: 'createRecurringInvoice',
        summary: 'Create a recurring invoice',
        description:
          'A template (the fields of POST /invoice/ and the positions as POST /invoice/{id}/positions takes them) and a schedule. ' +
          'Each run, on `day_of_month` (1 to 28, or `last`) every month, quarter or year from `start_date` until `end_date`, creates a draft for the period ' +
          'from the run date to the day before the next run (`benefit_period_start`/`benefit_period_end`; a monthly run on 2026-12-01 bills 2026-12-01 to 2026-12-31), ' +
          'with `meta.recurring_run` naming the run; with `auto_finalize` it is finalized (quota counted) and with `auto_send_email` e-mailed to `template.email`. ' +
          'Runs missed while the service was down are issued when it is back, oldest first, each once. ' +
          'A quota refusal (402) pauses the schedule (`paused_reason: quota_exceeded`); resuming finalizes the same draft. ' +
          'A template the invoice API refuses (e.g. a deleted customer) pauses it with `invoice_rejected` and the reason in `last_run.error`. ' +
          'Ids are numbered per company from 1.',
        requestBody: body(RecurringInvoiceCreate, createExample),
        responses: {
          201: jsonExample(
            RecurringInvoice,
            { ...recurringExample, next_run_date: '2026-12-01', last_run: null },
            'created; Location names it',
          ),
          ...conflict('500 recurring invoices that have not ended exist already (RECURRING_LIMIT)'),
          ...bodyErrors(),
          ...commonErrors(),
        },
      }),
    },
    '/recurring-invoices/{id}': {
      parameters: [intId('id', 'recurring invoice id')],
      get: r({
        operationId: 'getRecurringInvoice',
        summary: 'Get a recurring invoice',
        description: 'With `next_run_date` and the outcome of the last run.',
        responses: { 200: jsonExample(RecurringInvoice, pausedExample), ...notFound(), ...commonErrors() },
      }),
      put: r({
        operationId: 'updateRecurringInvoice',
        summary: 'Change, pause or resume a recurring invoice',
        description:
          'Only the fields sent change (`template` and `schedule` are replaced whole; null removes `name`). ' +
          '`status: paused` pauses, `status: active` resumes: missed periods are then issued, oldest first. ' +
          'A new schedule continues after the last period billed, so no period is billed twice.',
        requestBody: body(RecurringInvoiceUpdate, { status: 'active' }),
        responses: {
          200: jsonExample(RecurringInvoice, recurringExample),
          ...notFound(),
          ...conflict('the schedule has ended (RECURRING_ENDED), or changed at the same moment (CONCURRENT_MODIFICATION)'),
          ...bodyErrors(),
          ...commonErrors(),
        },
      }),
      delete: r({
        operationId: 'deleteRecurringInvoice',
        summary: 'Delete a recurring invoice',
        description: 'Stops it and deletes its run history; the invoices it issued stay.',
        responses: { 200: jsonExample(MessageBody, { message: 'recurring invoice deleted' }), ...notFound(), ...commonErrors() },
      }),
    },
    '/recurring-invoices/{id}/runs': {
      parameters: [intId('id', 'recurring invoice id')],
      get: r({
        operationId: 'listRecurringInvoiceRuns',
        summary: 'List the runs of a recurring invoice',
        description: 'Newest period first, each with the invoice it issued and its outcome.',
        parameters: queryParams(RecurringRunsQuery),
        responses: {
          200: jsonExample(
            z.object({ runs: z.array(RecurringRun), total: z.number().int(), page: z.number().int(), limit: z.number().int() }),
            { runs: [runExample], total: 1, page: 1, limit: 25 },
            'a page of runs',
            paginationHeaders,
          ),
          ...notFound(),
          ...commonErrors(),
        },
      }),
    },
  };
}
