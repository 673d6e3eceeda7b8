import { z } from 'zod';
import { DecimalInput, IntId, IsoDate, NUMBER_BOUNDS, Pagination, TaxRateInput } from './common';
import { safeText } from './safe-text';
import { isMistakenUnitWord, unitCodeIssue } from './unit-codes';

export const InvoiceFormat = z.enum(['PDF', 'ZUGFERD', 'XRECHNUNG', 'PEPPOL', 'FACTURAPA', 'FACTURAE']);
export type InvoiceFormat = z.output<typeof InvoiceFormat>;
export const TaxTreatmentId = z.enum([
  'standard',
  'reduced',
  'reverse_charge',
  'intra_community',
  'export_outside_eu',
  'exempt',
  'outside_scope',
]);
export type TaxTreatmentId = z.output<typeof TaxTreatmentId>;
export const InvoiceStatus = z.enum(['DRAFT', 'OPEN', 'SENT', 'PAID', 'CANCELLED']);
export type InvoiceStatus = z.output<typeof InvoiceStatus>;

/** Largest `meta` accepted, as JSON text. */
export const MAX_META_LENGTH = 4000;

/**
 * Free data of the integrator: a string (the spec) or a JSON object (the published SDK sends a dict),
 * stored and returned as given, at most MAX_META_LENGTH characters as JSON.
 */
export const InvoiceMeta = z
  .union([z.string().max(2000), z.record(z.string(), z.unknown())])
  .refine((v) => typeof v === 'string' || JSON.stringify(v).length <= MAX_META_LENGTH, {
    message: `at most ${MAX_META_LENGTH} characters as JSON`,
  })
  .meta({ description: 'free text or a JSON object of your own (at most 4,000 characters as JSON); returned as given' });
export type InvoiceMeta = z.output<typeof InvoiceMeta>;

const invoiceFields = {
  customer_id: IntId,
  benefit_period_start: IsoDate.optional(),
  benefit_period_end: IsoDate.optional(),
  invoice_format: InvoiceFormat.optional(),
  invoice_number: safeText(z.string().trim().min(1).max(50)).optional(),
  meta: InvoiceMeta.optional(),
  ftl_template_id: IntId.optional(),
  tax_treatment_id: TaxTreatmentId.optional(),
  buyer_reference: safeText(z.string().max(200))
    .optional()
    .meta({ description: 'BT-10; the Leitweg-ID for German public-sector buyers (XRechnung)' }),
  note: safeText(z.string().max(2000), { multiLine: true }).optional(),
};

const periodOrder = (v: { benefit_period_start?: string; benefit_period_end?: string }, ctx: z.RefinementCtx) => {
  if (v.benefit_period_start && v.benefit_period_end && v.benefit_period_start > v.benefit_period_end) {
    ctx.addIssue({ code: 'custom', path: ['benefit_period_end'], message: 'must not be before benefit_period_start' });
  }
};

export const InvoiceCreate = z
  .object({
    ...invoiceFields,
    invoice_date: IsoDate.optional().meta({
      description: 'ignored: the service sets the invoice date at finalization (known because a reference example sends it)',
    }),
  })
  .superRefine(periodOrder)
  .meta({ id: 'InvoiceCreate' });
export type InvoiceCreate = z.output<typeof InvoiceCreate>;
export const InvoiceUpdate = z.object(invoiceFields).partial().superRefine(periodOrder).meta({ id: 'InvoiceUpdate' });
export type InvoiceUpdate = z.output<typeof InvoiceUpdate>;

export const DiscountType = z.enum(['PERCENTAGE', 'FIXED_AMOUNT']);

const positionFields = {
  title: safeText(z.string().trim().min(1).max(500)),
  quantity: DecimalInput({ maxDecimals: 4, min: 0, max: NUMBER_BOUNDS.maxQuantity, description: 'quantity' }),
  /**
   * One reference example sends an integer, so any code of at most 3 characters is kept (an XML format checks it at
   * validation); a unit word ("Stunde", "Stk", "h") is refused with the UN/ECE Rec 20 code it most likely means.
   */
  unit_id: z
    .union([z.string().trim().min(1), z.number().int()])
    .transform((v, ctx) => {
      const s = String(v);
      if (typeof v === 'string' && (s.length > 3 || isMistakenUnitWord(s))) {
        ctx.addIssue({ code: 'custom', ...unitCodeIssue(s) });
        return z.NEVER;
      }
      return s;
    })
    .meta({ description: 'UN/ECE Recommendation 20 unit code, e.g. HUR hour, C62 piece, DAY day, MON month, LS lump sum' }),
  unit_net_amount: DecimalInput({ maxDecimals: 4, min: 0, max: NUMBER_BOUNDS.maxUnitPrice, description: 'net price per unit' }),
  /**
   * What the client computed as quantity x unit price. Clients compute it with binary floats
   * (0.30000000000000004), so any number of decimals is accepted. The service derives it itself and its
   * own value always wins: a difference of at most 0.01 passes silently, beyond that the answer (still
   * 201/200) carries `warnings` with code DERIVED_VALUE_REPLACED naming both values.
   */
  single_net_amount: DecimalInput({
    maxDecimals: 20,
    min: -Number(NUMBER_BOUNDS.maxAmount),
    max: NUMBER_BOUNDS.maxAmount,
    description:
      'quantity x unit price as the client computed it; derived by the service, whose value wins (a difference above 0.01 adds a DERIVED_VALUE_REPLACED warning to the answer)',
  }).optional(),
  tax_rate: TaxRateInput().optional(),
  tax_treatment_id: TaxTreatmentId.optional(),
  description: safeText(z.string().max(2000), { multiLine: true }).optional(),
  discount_type: DiscountType.optional(),
  discount_value: DecimalInput({
    maxDecimals: 2,
    min: 0,
    max: NUMBER_BOUNDS.maxAmount,
    description: 'percent (PERCENTAGE, at most 100) or amount (FIXED_AMOUNT)',
  }).optional(),
};

const discountConsistency = (p: { discount_type?: string; discount_value?: string; tax_rate?: string }, ctx: z.RefinementCtx) => {
  if (p.discount_value !== undefined && !p.discount_type) {
    ctx.addIssue({ code: 'custom', path: ['discount_type'], message: 'required when discount_value is given' });
  }
  if (p.discount_type === 'PERCENTAGE' && p.discount_value !== undefined && Number(p.discount_value) > 100) {
    ctx.addIssue({ code: 'custom', path: ['discount_value'], message: 'a percentage discount is at most 100' });
  }
  if (p.tax_rate !== undefined && Number(p.tax_rate) >= 1) {
    ctx.addIssue({ code: 'custom', path: ['tax_rate'], message: 'a decimal fraction below 1 (0.19 = 19 %)' });
  }
};

export const PositionCreate = z.object(positionFields).superRefine(discountConsistency).meta({ id: 'PositionCreate' });
/**
 * POST /invoice/{id}/positions: with product_id, the product's values fill what the request leaves out
 * (title, unit_id, unit_net_amount, tax_rate, tax_treatment_id, description); without it, title, quantity,
 * unit_id and unit_net_amount are required.
 */
export const PositionCreateInput = z
  .object({
    ...positionFields,
    product_id: z.coerce
      .number()
      .int()
      .positive()
      .max(2 ** 31 - 1)
      .optional()
      .meta({ description: 'fill the position from this product (a copy: later product changes do not touch it)' }),
  })
  .partial({ title: true, unit_id: true, unit_net_amount: true })
  .superRefine(discountConsistency)
  .superRefine((p, ctx) => {
    if (p.product_id !== undefined) return;
    for (const f of ['title', 'unit_id', 'unit_net_amount'] as const)
      if (p[f] === undefined) ctx.addIssue({ code: 'custom', path: [f], message: 'required unless product_id is given' });
  })
  .meta({ id: 'PositionCreateInput' });
export type PositionCreateInput = z.output<typeof PositionCreateInput>;
export type PositionCreate = z.output<typeof PositionCreate>;
/**
 * The decimal fields of a position (DecimalInput: a JSON number or decimal text in, exact decimal text after
 * parsing): an answer that repeats a position as it was given writes them as JSON numbers.
 */
export const POSITION_DECIMAL_FIELDS = ['quantity', 'unit_net_amount', 'single_net_amount', 'tax_rate', 'discount_value'] as const;

/** Most positions one invoice may have (invoice-service refuses the next one). */
export const MAX_INVOICE_POSITIONS = 1000;

/**
 * POST /invoice/validate: an invoice as POST /invoice/ takes it with its positions as POST /invoice/{id}/positions
 * takes them, checked as GET /invoice/{id}/validate checks a draft (the rules finalization applies), without
 * creating anything: no draft, no number, no quota. recurring-service checks a template with it before it saves
 * a schedule.
 */
export const InvoiceDraftCheck = z
  .object({
    ...InvoiceCreate.shape,
    positions: z
      .array(PositionCreateInput)
      .max(MAX_INVOICE_POSITIONS)
      .meta({ description: `the positions as POST /invoice/{id}/positions takes them (at most ${MAX_INVOICE_POSITIONS})` }),
  })
  .superRefine(periodOrder)
  .meta({
    id: 'InvoiceDraftCheck',
    example: {
      customer_id: 42,
      invoice_format: 'XRECHNUNG',
      buyer_reference: '04011000-12345-03',
      benefit_period_start: '2026-12-01',
      benefit_period_end: '2026-12-31',
      positions: [{ title: 'Office rent', quantity: 1, unit_id: 'MON', unit_net_amount: 1200, tax_rate: 0.19 }],
    },
  });
export type InvoiceDraftCheck = z.output<typeof InvoiceDraftCheck>;
export const PositionUpdate = z.object(positionFields).partial().superRefine(discountConsistency).meta({ id: 'PositionUpdate' });
export type PositionUpdate = z.output<typeof PositionUpdate>;

export const PositionReorder = z.union([z.array(IntId), z.object({ position_ids: z.array(IntId) }).transform((o) => o.position_ids)]);

export const FINALIZE_TASK = 'process_invoice_flag_invoice_send_job';
/** A job request names a task; any string, so that an unknown task gets its own answer (then JobRequest applies). */
export const JobTask = z.object({ task: z.string(), vat_override_confirmed: z.boolean().optional() });

export const JobRequest = z.object({
  task: z.literal(FINALIZE_TASK),
  vat_override_confirmed: z.boolean().optional(),
});

export const StatusUpdate = z.discriminatedUnion('status', [
  z.object({ status: z.literal('SENT') }),
  z.object({
    status: z.literal('PAID'),
    paid_date: IsoDate,
    payment_method: z.enum(['BANK_TRANSFER', 'CASH', 'CARD', 'DIRECT_DEBIT', 'PAYPAL', 'OTHER']),
    payment_reference: safeText(z.string().max(200)).optional(),
  }),
]);
export type StatusUpdate = z.output<typeof StatusUpdate>;

export const JobStatus = z.enum(['queued', 'started', 'finished', 'failed']).meta({
  description:
    'queued -> started -> finished | failed. `started` is shown only for a job still rendering after a moment (250 ms by default): a fast job goes from queued straight to its end, and its `started_at` is still set.',
});

/** Longest a job poll may be held (below the gateway's 30 s upstream timeout). */
export const MAX_JOB_WAIT_SECONDS = 25;
export const JobWaitQuery = z.object({
  wait: z.coerce
    .number()
    .int()
    .min(0)
    .max(MAX_JOB_WAIT_SECONDS)
    .default(0)
    .meta({
      description: `long polling: hold the answer up to this many seconds (at most ${MAX_JOB_WAIT_SECONDS}) until the status changes; 0 answers at once`,
    }),
});
export type JobStatus = z.output<typeof JobStatus>;

/** Longest `cursor` of GET /invoice/ (a next_cursor is far shorter: the sort, a key value of at most 50 characters, an id). */
export const MAX_LIST_CURSOR_LENGTH = 200;

export const InvoiceSort = z.enum(['date', '-date', 'number', '-number', 'amount', '-amount', 'created', '-created']);
export type InvoiceSort = z.output<typeof InvoiceSort>;

/** GET /invoice/ filters; every one is backed by an index (see apps/invoice-service/src/invoices/db/invoices.ts). */
export const InvoiceListQuery = Pagination.extend({
  status: InvoiceStatus.optional(),
  customer_id: IntId.optional(),
  document_type: z.enum(['INVOICE', 'CREDIT_NOTE']).optional(),
  date_from: IsoDate.optional().meta({ description: 'invoice date on or after (finalized invoices)' }),
  date_to: IsoDate.optional().meta({ description: 'invoice date on or before' }),
  due_from: IsoDate.optional().meta({ description: 'due date on or after' }),
  due_to: IsoDate.optional().meta({ description: 'due date on or before' }),
  overdue: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional()
    .meta({ description: 'true: OPEN or SENT and due before today' }),
  open: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional()
    .meta({ description: 'true: finalized and not fully paid (OPEN or SENT, open_amount > 0); false: paid in full (PAID)' }),
  q: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .meta({ description: 'invoice number or customer name contains this text, taken literally (not a pattern), case-insensitive' }),
  sort: InvoiceSort.default('-created').meta({
    description: 'date, number, amount or created; a leading - sorts descending (default -created: newest first)',
  }),
  cursor: z
    .string()
    .max(MAX_LIST_CURSOR_LENGTH)
    .regex(/^[A-Za-z0-9_-]+$/, 'must be a next_cursor of an earlier page')
    .optional()
    .meta({
      description:
        'the next_cursor of the previous page: the page after it, in the same sort order and with the same filters (instead of page, which then stays 1); a deep page costs what the first one does',
    }),
})
  .refine((q) => !q.cursor || q.page === 1, {
    path: ['page'],
    message: 'page and cursor exclude each other: follow next_cursor, or give a page',
  })
  .refine((q) => !q.date_from || !q.date_to || q.date_from <= q.date_to, { path: ['date_to'], message: 'must not be before date_from' })
  .refine((q) => !q.due_from || !q.due_to || q.due_from <= q.due_to, { path: ['due_to'], message: 'must not be before due_from' });
export type InvoiceListQuery = z.output<typeof InvoiceListQuery>;
