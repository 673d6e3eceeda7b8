import { z } from 'zod';
import { IsoDate, Pagination } from './common';
import { SendEmailRequest } from './delivery';
import { InvoiceCreate, MAX_META_LENGTH, POSITION_DECIMAL_FIELDS, PositionCreateInput } from './invoices';
import { safeText } from './safe-text';

/**
 * Recurring invoices (recurring-service): a template of an invoice and a schedule. Each run creates the draft
 * through the public invoice API (create, add positions, optionally finalize and e-mail) with the company's
 * identity, for one service period; a (schedule, period) is issued at most once.
 */

/** Most positions one template may carry (each becomes one POST /invoice/{id}/positions per run). */
export const MAX_RECURRING_POSITIONS = 100;
/** Key of the invoice `meta` under which a run marks the draft it created (found again after a crash). */
export const RECURRING_RUN_META_KEY = 'recurring_run';
/**
 * How far back a schedule's start_date may lie, in days before today (the service's UTC date): the periods since
 * then are issued as a catch-up, so an old date would issue years of invoices, each with a permanent number.
 */
export const RECURRING_START_MAX_PAST_DAYS = 365;
/** How far ahead a schedule's start_date may lie, in years after today. */
export const RECURRING_START_MAX_FUTURE_YEARS = 10;

export const RecurringInterval = z.enum(['monthly', 'quarterly', 'yearly']).meta({ id: 'RecurringInterval' });
export type RecurringInterval = z.output<typeof RecurringInterval>;
export const RecurringStatus = z.enum(['active', 'paused', 'ended']).meta({
  id: 'RecurringStatus',
  description: 'ended: the end_date has passed (set by the service); paused: by you, or by a run that could not finish (see paused_reason)',
});
export type RecurringStatus = z.output<typeof RecurringStatus>;

export const DayOfMonth = z
  .union([z.number().int().min(1).max(28, { message: 'at most 28; use "last" for the last day of every month' }), z.literal('last')])
  .meta({ description: 'the day of the month of each run: 1 to 28, or "last" (28, 29, 30 or 31 as the month has)', example: 1 });
export type DayOfMonth = z.output<typeof DayOfMonth>;

/** The invoice fields the template takes: those of POST /invoice/ (the same schemas), except what each run sets. */
const invoiceField = InvoiceCreate.shape;

/** The template's `meta` is a JSON object: each run adds `recurring_run` to it. */
const TemplateMeta = z
  .record(z.string(), z.unknown())
  .refine((v) => JSON.stringify(v).length <= MAX_META_LENGTH - 200, { message: `at most ${MAX_META_LENGTH - 200} characters as JSON` })
  .meta({ description: 'a JSON object of your own copied to every invoice, with `recurring_run` (the run id) added' });

/** A realistic template: an XRechnung to a public buyer, with its Leitweg-ID, monthly rent and service charge. */
const templateExample = {
  customer_id: 42,
  invoice_format: 'XRECHNUNG',
  buyer_reference: '04011000-12345-03',
  note: 'Rent as agreed in the lease of 2024-01-01.',
  meta: { contract: 'L-2024-007' },
  positions: [
    { title: 'Office rent', quantity: 1, unit_id: 'MON', unit_net_amount: 1200, tax_rate: 0.19 },
    { title: 'Service charge', quantity: 1, unit_id: 'MON', unit_net_amount: 150, tax_rate: 0.19 },
  ],
  email: { to: 'accounts-payable@customer.example', subject: 'Your rent invoice', attach_pdf: true },
};

export const RecurringTemplate = z
  .object({
    customer_id: invoiceField.customer_id,
    invoice_format: invoiceField.invoice_format,
    tax_treatment_id: invoiceField.tax_treatment_id,
    ftl_template_id: invoiceField.ftl_template_id,
    buyer_reference: invoiceField.buyer_reference,
    note: invoiceField.note,
    meta: TemplateMeta.optional(),
    positions: z
      .array(PositionCreateInput)
      .min(1)
      .max(MAX_RECURRING_POSITIONS)
      .meta({ description: `the positions as POST /invoice/{id}/positions takes them (1 to ${MAX_RECURRING_POSITIONS})` }),
    email: SendEmailRequest.optional().meta({ description: 'the e-mail sent after finalization (required with auto_send_email)' }),
  })
  .meta({
    id: 'RecurringTemplate',
    description:
      'what each run creates: POST /invoice/ with these fields and benefit_period_start/end set to the run period, then each position; invoices are in EUR. Checked like an invoice when saved (POST /invoice/validate: the rules finalization applies)',
    example: templateExample,
  });
export type RecurringTemplate = z.output<typeof RecurringTemplate>;

const scheduleFields = {
  interval: RecurringInterval,
  day_of_month: DayOfMonth,
  start_date: IsoDate.meta({
    description: `the first run is the first day_of_month on or after this date; at most ${RECURRING_START_MAX_PAST_DAYS} days before today (missed periods are issued as a catch-up, a few per scheduler tick) and at most ${RECURRING_START_MAX_FUTURE_YEARS} years after it`,
    example: '2026-12-01',
  }),
  end_date: IsoDate.optional().meta({
    description: 'no run after this date; the last period ends on it at the latest',
    example: '2027-11-30',
  }),
};
const endAfterStart = (s: { start_date?: string; end_date?: string }, ctx: z.RefinementCtx) => {
  if (s.start_date && s.end_date && s.end_date < s.start_date)
    ctx.addIssue({ code: 'custom', path: ['end_date'], message: 'must not be before start_date' });
};
export const RecurringSchedule = z.object(scheduleFields).superRefine(endAfterStart).meta({ id: 'RecurringSchedule' });
export type RecurringSchedule = z.output<typeof RecurringSchedule>;

const sendNeedsFinalize = (
  v: { auto_finalize?: boolean; auto_send_email?: boolean; template?: { email?: unknown } },
  ctx: z.RefinementCtx,
) => {
  if (v.auto_send_email && v.auto_finalize === false)
    ctx.addIssue({ code: 'custom', path: ['auto_send_email'], message: 'needs auto_finalize (only finalized invoices are sent)' });
  if (v.auto_send_email && v.template && !v.template.email)
    ctx.addIssue({ code: 'custom', path: ['template', 'email'], message: 'required with auto_send_email (at least `to`)' });
};

export const RecurringInvoiceCreate = z
  .object({
    name: safeText(z.string().trim().min(1).max(200))
      .optional()
      .meta({ description: 'your label for the schedule', example: 'Office rent Musterstraße 1' }),
    template: RecurringTemplate,
    schedule: RecurringSchedule,
    auto_finalize: z.boolean().default(false).meta({ description: 'finalize each draft (uses the monthly quota)' }),
    auto_send_email: z
      .boolean()
      .default(false)
      .meta({ description: 'e-mail each finalized invoice (needs auto_finalize and template.email)' }),
  })
  .superRefine(sendNeedsFinalize)
  .meta({ id: 'RecurringInvoiceCreate' });
export type RecurringInvoiceCreate = z.output<typeof RecurringInvoiceCreate>;

export const RecurringInvoiceUpdate = z
  .object({
    name: safeText(z.string().trim().min(1).max(200)).nullable().optional(),
    template: RecurringTemplate.optional().meta({ description: 'replaces the whole template' }),
    schedule: RecurringSchedule.optional().meta({
      description: 'replaces the whole schedule; the next run is recomputed from the later of start_date and the day after the last run',
    }),
    auto_finalize: z.boolean().optional(),
    auto_send_email: z.boolean().optional(),
    status: z
      .enum(['active', 'paused'])
      .optional()
      .meta({ description: 'pause, or resume (missed periods are then issued, oldest first); an ended schedule cannot be resumed' }),
  })
  .superRefine(sendNeedsFinalize)
  .meta({ id: 'RecurringInvoiceUpdate', description: 'the fields given change; the others stay' });
export type RecurringInvoiceUpdate = z.output<typeof RecurringInvoiceUpdate>;

export const RecurringRunOutcome = z
  .enum(['running', 'draft_created', 'finalized', 'sent', 'quota_exceeded', 'finalize_failed', 'failed'])
  .meta({
    id: 'RecurringRunOutcome',
    description:
      'running: in progress; draft_created: the draft is ready (no auto_finalize); finalized / sent: finalized (and e-mailed); quota_exceeded: the draft exists, finalization was refused with 402 and the schedule paused; finalize_failed: finalization was refused (422) or its job failed, the draft stays and the schedule paused (see error); failed: the invoice API refused the draft (see error)',
  });

/**
 * Why a schedule is paused: user: by you (PUT status paused); quota_exceeded: finalization was refused (402);
 * invoice_rejected: the invoice API refused the draft or a position; finalize_failed: finalization was refused (422)
 * or its job failed. In each case but `user` the run stays open with its draft: resuming continues it (no second
 * draft) after the cause is fixed; `last_run.error` says what it was.
 */
export const RecurringPausedReason = z.enum(['user', 'quota_exceeded', 'invoice_rejected', 'finalize_failed']).meta({
  id: 'RecurringPausedReason',
  description:
    'user: paused by you; quota_exceeded: finalization was refused (402); invoice_rejected: the invoice API refused the draft or a position; finalize_failed: finalization was refused (422) or its job failed. The reason is in last_run.error; resuming continues the same run and draft once the cause is fixed',
});
export type RecurringPausedReason = z.output<typeof RecurringPausedReason>;

const LastRun = z
  .object({
    date: IsoDate,
    period_start: IsoDate,
    period_end: IsoDate,
    invoice_id: z.number().int().nullable(),
    outcome: RecurringRunOutcome,
    error: z.string().nullable(),
  })
  .meta({ id: 'RecurringLastRun' });

/**
 * The template as answered: the request's own schemas (RecurringTemplate, PositionCreateInput), with the decimal fields
 * of the positions as JSON numbers, as every answer gives amounts (`"quantity": 2`, `"tax_rate": 0.19`). It is a valid
 * RecurringTemplate: what GET answers can be sent back with PUT. The request components are request shapes
 * (optional fields nullable), so the answer names its own.
 */
const decimalAsNumber = (field: (typeof POSITION_DECIMAL_FIELDS)[number]) => {
  const given = PositionCreateInput.shape[field];
  const input = given instanceof z.ZodOptional ? given.unwrap() : given;
  const { description, minimum, maximum } = (input.meta() ?? {}) as { description?: string; minimum?: number; maximum?: number };
  let n = z.number();
  if (minimum !== undefined) n = n.min(minimum);
  if (maximum !== undefined) n = n.max(maximum);
  return description ? n.meta({ description }) : n;
};
const positionNumbers = {
  quantity: decimalAsNumber('quantity'),
  unit_net_amount: decimalAsNumber('unit_net_amount').optional(),
  single_net_amount: decimalAsNumber('single_net_amount').optional(),
  tax_rate: decimalAsNumber('tax_rate').optional(),
  discount_value: decimalAsNumber('discount_value').optional(),
} satisfies Record<(typeof POSITION_DECIMAL_FIELDS)[number], z.ZodType>;
export const RecurringTemplatePosition = z
  .object({ ...PositionCreateInput.shape, ...positionNumbers, unit_id: z.string().optional() })
  .meta({ id: 'RecurringTemplatePosition', description: 'a position as given (PositionCreateInput), amounts as JSON numbers' });
export type RecurringTemplatePosition = z.output<typeof RecurringTemplatePosition>;
export const RecurringTemplateView = z
  .object({
    ...RecurringTemplate.shape,
    positions: z.array(RecurringTemplatePosition),
    email: z.object(SendEmailRequest.shape).optional().meta({ description: 'as given (SendEmailRequest)' }),
  })
  .meta({ id: 'RecurringTemplateView', example: templateExample });
export type RecurringTemplateView = z.output<typeof RecurringTemplateView>;
const RecurringScheduleView = z.object(scheduleFields).meta({ id: 'RecurringScheduleView' });

export const RecurringInvoice = z
  .object({
    id: z.number().int().meta({ example: 1 }),
    name: z.string().nullable(),
    template: RecurringTemplateView,
    schedule: RecurringScheduleView,
    auto_finalize: z.boolean(),
    auto_send_email: z.boolean(),
    status: RecurringStatus,
    paused_reason: RecurringPausedReason.nullable().meta({ description: 'why it is paused (null unless paused)' }),
    next_run_date: IsoDate.nullable().meta({ description: 'null once ended' }),
    last_run: LastRun.nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'RecurringInvoice' });
export type RecurringInvoice = z.output<typeof RecurringInvoice>;

export const RecurringRun = z
  .object({
    id: z.string().meta({ example: '1:2026-12-01' }),
    date: IsoDate.meta({ description: 'the scheduled run date (the period start)' }),
    period_start: IsoDate,
    period_end: IsoDate,
    invoice_id: z.number().int().nullable(),
    outcome: RecurringRunOutcome,
    error: z.string().nullable(),
    started_at: z.string(),
    finished_at: z.string().nullable(),
  })
  .meta({ id: 'RecurringRun' });
export type RecurringRun = z.output<typeof RecurringRun>;

export const RecurringListQuery = Pagination.extend({
  status: z.enum(['active', 'paused', 'ended']).optional().meta({ description: 'only schedules in this status', example: 'paused' }),
});
export type RecurringListQuery = z.output<typeof RecurringListQuery>;
export const RecurringRunsQuery = Pagination;
export type RecurringRunsQuery = z.output<typeof RecurringRunsQuery>;
