import { z } from 'zod';
import {
  MessageBody,
  RecurringInvoice,
  RecurringInvoiceCreate,
  RecurringInvoiceUpdate,
  RecurringListQuery,
  RecurringRun,
  RecurringRunsQuery,
  RecurringTemplate,
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
  unprocessable,
} from '../builder';

/** The contract's own example template (an XRechnung to a public buyer with its Leitweg-ID), as sent and as answered. */
const templateExample = RecurringTemplate.meta()?.example as Record<string, unknown>;

const createExample = {
  name: 'Office rent Musterstraße 1',
  template: templateExample,
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
  paused_reason: 'finalize_failed',
  next_run_date: '2027-01-01',
  updated_at: '2027-01-01T00:01:02.877Z',
  last_run: {
    date: '2027-01-01',
    period_start: '2027-01-01',
    period_end: '2027-01-31',
    invoice_id: 388,
    outcome: 'finalize_failed',
    error:
      '422 INVOICE_NOT_VALID: the invoice cannot be finalized: XRechnung needs the buyer reference (Leitweg-ID for public buyers). [buyerReference]',
  },
};

const refusedExample = {
  type: '/api/v1/problems/recurring-template-not-valid',
  title: 'Unprocessable Content',
  status: 422,
  detail:
    "the template would not pass finalization: template.buyer_reference: XRechnung needs the buyer reference (Leitweg-ID for public buyers). Set template.buyer_reference (the Leitweg-ID for public buyers), or the customer's buyer_reference (PUT /customer/{id}), which new invoices take.",
  message:
    "the template would not pass finalization: template.buyer_reference: XRechnung needs the buyer reference (Leitweg-ID for public buyers). Set template.buyer_reference (the Leitweg-ID for public buyers), or the customer's buyer_reference (PUT /customer/{id}), which new invoices take.",
  error_code: 'RECURRING_TEMPLATE_NOT_VALID',
  code: 'RECURRING_TEMPLATE_NOT_VALID',
  errors: [
    {
      path: 'template.buyer_reference',
      field: 'template.buyer_reference',
      rule: 'BR-DE-15',
      message:
        "XRechnung needs the buyer reference (Leitweg-ID for public buyers). Set template.buyer_reference (the Leitweg-ID for public buyers), or the customer's buyer_reference (PUT /customer/{id}), which new invoices take.",
    },
  ],
};
const refused = (when: string) => {
  const answer = unprocessable(
    `${when} the template would not pass finalization (RECURRING_TEMPLATE_NOT_VALID): \`errors\` names each field, \`template.…\` where the template sets it, else the customer's or the company's; nothing was saved`,
  )[422];
  const media = answer.content['application/problem+json'];
  return { 422: { ...answer, content: { 'application/problem+json': { ...media, example: refusedExample } } } };
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
          "The template is the invoice's shape: the fields of POST /invoice/ and positions as POST /invoice/{id}/positions takes them, answered with amounts as JSON numbers (`quantity: 1`, `tax_rate: 0.19`). " +
          'It is checked like an invoice before it is saved (POST /invoice/validate, the rules finalization applies, on the draft of the first run): what finalization would refuse is a 422 naming the field ' +
          '(an XRechnung without a buyer reference: `template.buyer_reference`); when the invoice service cannot check it now the answer is 503 and nothing is saved. ' +
          'A run that cannot finish pauses the schedule with `paused_reason` and the reason in `last_run.error` instead of leaving a draft every period: ' +
          '`quota_exceeded` (finalization refused with 402), `finalize_failed` (finalization refused with 422, or its job failed), `invoice_rejected` (the draft or a position refused, e.g. a customer deleted since). ' +
          'The run keeps its draft: resuming (PUT `status: active`, after fixing the template, the customer or the company profile) finalizes that same draft, brought up to date with the template, and never creates a second one for the period. ' +
          'Ids are numbered per company from 1.',
        requestBody: body(RecurringInvoiceCreate, createExample),
        responses: {
          201: jsonExample(
            RecurringInvoice,
            { ...recurringExample, next_run_date: '2026-12-01', last_run: null },
            'created; Location names it',
          ),
          ...conflict('500 recurring invoices that have not ended exist already (RECURRING_LIMIT)'),
          ...refused('at creation'),
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
        description:
          'With `next_run_date` and the outcome of the last run; a paused one says why (`paused_reason`, `last_run.error`). The same shape as each entry of the list.',
        responses: { 200: jsonExample(RecurringInvoice, pausedExample), ...notFound(), ...commonErrors() },
      }),
      put: r({
        operationId: 'updateRecurringInvoice',
        summary: 'Change, pause or resume a recurring invoice',
        description:
          'Only the fields sent change (`template` and `schedule` are replaced whole; null removes `name`). ' +
          '`status: paused` pauses, `status: active` resumes: missed periods are then issued, oldest first, the paused run first with its own draft. ' +
          'A new schedule continues after the last period billed, so no period is billed twice. ' +
          'A new template or schedule and a resume are saved only when the template passes the checks finalization applies (422 naming the field; 503 when they cannot be made now); pausing and renaming always are.',
        requestBody: body(RecurringInvoiceUpdate, { template: templateExample, status: 'active' }),
        responses: {
          200: jsonExample(RecurringInvoice, recurringExample),
          ...notFound(),
          ...conflict('the schedule has ended (RECURRING_ENDED), or changed at the same moment (CONCURRENT_MODIFICATION)'),
          ...refused('with the new template or schedule, or on resuming,'),
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
