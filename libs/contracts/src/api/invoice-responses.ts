import { z } from 'zod';
import { InvoiceFormat, InvoiceStatus, JobStatus, TaxTreatmentId } from './invoices';
import { VatCheck } from './customer-responses';
import { Day, Money, Timestamp } from './response-fields';

/** Response bodies of invoices: the invoice and its positions, jobs, validation, links (see responses.ts). */

export const Position = z
  .object({
    id: z.number().int(),
    title: z.string(),
    description: z.string().nullable(),
    quantity: z.number(),
    unit_id: z.string(),
    unit_net_amount: z.number(),
    single_net_amount: Money.nullable().meta({
      description: 'net total of the position before discount: quantity x unit_net_amount, rounded half up to the cent',
      example: 1000,
    }),
    net_amount_after_discount: Money.nullable().meta({
      description:
        'line net amount after the discount (single_net_amount less the discount, rounded to the cent; EN 16931 BT-131): what net_amount and the e-invoice add up; equal to single_net_amount without a discount',
      example: 900,
    }),
    tax_rate: z.number(),
    tax_treatment_id: TaxTreatmentId,
    discount_type: z.enum(['PERCENTAGE', 'FIXED_AMOUNT']).nullable(),
    discount_value: z.number().nullable(),
    product_id: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'the product the values were copied from (later product changes do not touch the position)' }),
  })
  .meta({ id: 'Position' });

const totals = {
  net_amount: Money.nullable(),
  tax_amount: Money.nullable(),
  gross_amount: Money.nullable(),
  amount_due: Money.nullable(),
  currency: z.literal('EUR'),
  vat_breakdown: z.array(z.object({ vat_category: z.string(), tax_rate: z.number(), net_amount: Money, tax_amount: Money })),
};

/**
 * A finalized invoice as GET /invoice/{id} shows it: 10 hours at 100.00 with a 10 % discount, 19 % VAT, open. The
 * reference's examples of invoices (and of webhook payloads carrying one) start from it.
 */
export const INVOICE_EXAMPLE = {
  id: 42,
  invoice_id: 42,
  customer_id: 7,
  customer_name: 'Muster GmbH',
  status: 'OPEN',
  invoice_number: 'RE-2026-00042',
  document_type: 'INVOICE',
  invoice_format: 'ZUGFERD',
  ftl_template_id: 1,
  tax_treatment_id: 'standard',
  benefit_period_start: '2026-11-01',
  benefit_period_end: '2026-11-30',
  buyer_reference: 'PO-4711',
  meta: { erp_order: '4711' },
  note: 'Leistungszeitraum November 2026',
  invoice_date: '2026-11-21',
  due_date: '2026-12-05',
  paid_date: null,
  payment_method: null,
  payment_reference: 'RE-2026-00042',
  preceding_invoice_id: null,
  net_amount: 900,
  tax_amount: 171,
  gross_amount: 1071,
  amount_due: 1071,
  currency: 'EUR',
  vat_breakdown: [{ vat_category: 'S', tax_rate: 0.19, net_amount: 900, tax_amount: 171 }],
  paid_amount: 0,
  skonto_amount: 0,
  credited_amount: 0,
  open_amount: 1071,
  positions: [
    {
      id: 3,
      title: 'Beratung (Stunden)',
      description: 'Beratung vor Ort, November 2026',
      quantity: 10,
      unit_id: 'HUR',
      unit_net_amount: 100,
      single_net_amount: 1000,
      net_amount_after_discount: 900,
      tax_rate: 0.19,
      tax_treatment_id: 'standard',
      discount_type: 'PERCENTAGE',
      discount_value: 10,
      product_id: 12,
    },
  ],
  created_at: '2026-11-20T14:02:11.000Z',
  updated_at: '2026-11-21T09:30:04.000Z',
  finalized_at: '2026-11-21T09:30:04.000Z',
  cancelled_at: null,
};

export const Invoice = z
  .object({
    id: z.number().int(),
    invoice_id: z.number().int(),
    customer_id: z.number().int(),
    customer_name: z.string().nullable().meta({ description: "the buyer's name as on the invoice (the customer's name while a draft)" }),
    status: InvoiceStatus,
    invoice_number: z.string(),
    document_type: z.enum(['INVOICE', 'CREDIT_NOTE']),
    invoice_format: InvoiceFormat,
    ftl_template_id: z.number().int().nullable(),
    tax_treatment_id: TaxTreatmentId.nullable(),
    benefit_period_start: Day.nullable(),
    benefit_period_end: Day.nullable(),
    buyer_reference: z.string().nullable(),
    meta: z
      .union([z.string(), z.record(z.string(), z.unknown())])
      .nullable()
      .meta({ description: 'as you sent it: a string or a JSON object' }),
    note: z.string().nullable(),
    invoice_date: Day.nullable(),
    due_date: Day.nullable(),
    paid_date: Day.nullable(),
    payment_method: z.string().nullable(),
    payment_reference: z.string().nullable(),
    preceding_invoice_id: z.number().int().nullable(),
    ...totals,
    paid_amount: Money.meta({ description: 'sum of the payments recorded (not reversed); for a credit note: refunded' }),
    skonto_amount: Money.meta({ description: 'early-payment discount (Skonto) granted with payments' }),
    credited_amount: Money.meta({
      description:
        "the part of credit notes applied to the invoice, the same figure on both documents. Invoice: the sum of its finalized credit notes' applied parts; lowers the open amount; a credit note that leaves nothing open makes an OPEN or SENT invoice PAID without a payment; an invoice already paid in full takes nothing (0). Credit note: the part of its gross applied to its invoice (what the invoice still owed, at most the gross); the rest is open, a refund owed (recorded as a payment on the credit note); applied in full, the credit note is PAID without a refund",
      example: 19,
    }),
    open_amount: Money.nullable().meta({
      description:
        'gross - paid - Skonto - credited (for a credit note: gross - refunded - applied); 0 when PAID; null for drafts and cancelled invoices (GET /invoice/{id}/payments)',
    }),
    positions: z.array(Position).optional().meta({ description: 'on GET /invoice/{id}' }),
    position_count: z.number().int().optional().meta({ description: 'in lists' }),
    created_at: Timestamp,
    updated_at: Timestamp,
    finalized_at: Timestamp.nullable(),
    cancelled_at: Timestamp.nullable(),
  })
  .meta({ id: 'Invoice', example: INVOICE_EXAMPLE });

export const InvoicePage = z
  .object({
    invoices: z.array(Invoice),
    total: z.number().int(),
    page: z.number().int(),
    limit: z.number().int(),
    next_cursor: z.string().nullable().meta({ description: 'pass as cursor for the next page; null on the last page' }),
  })
  .meta({
    id: 'InvoicePage',
    description: 'also in headers: X-Total-Count and Link (first, prev, next, last)',
    example: {
      // list entries: the invoice without its positions, their number instead
      invoices: [{ ...Object.fromEntries(Object.entries(INVOICE_EXAMPLE).filter(([k]) => k !== 'positions')), position_count: 1 }],
      total: 1,
      page: 1,
      limit: 25,
      next_cursor: null,
    },
  });

export const Job = z
  .object({
    job_id: z.string(),
    id: z.string(),
    task: z.string(),
    status: JobStatus,
    invoice_id: z.number().int(),
    error_message: z.string().optional().meta({ description: 'when failed' }),
    created_at: Timestamp,
    started_at: Timestamp.nullable(),
    finished_at: Timestamp.nullable(),
  })
  .meta({
    id: 'Job',
    example: {
      job_id: '0b6f6d1e-7c7e-4b8e-9a55-2f1f1c7f9a10',
      id: '0b6f6d1e-7c7e-4b8e-9a55-2f1f1c7f9a10',
      task: 'process_invoice_flag_invoice_send_job',
      status: 'finished',
      invoice_id: 42,
      created_at: '2026-11-21T10:15:00.000Z',
      started_at: '2026-11-21T10:15:00.040Z',
      finished_at: '2026-11-21T10:15:00.110Z',
    },
  });

export const DownloadLink = z
  .object({
    url: z.string().meta({ description: 'presigned; valid for expires_in seconds' }),
    filename: z.string(),
    expires_in: z.number().int(),
  })
  .meta({ id: 'DownloadLink' });

/** One rule finding: the same shape in the validation's `errors`/`warnings` and in finalization's 422 `errors`. */
export const RuleFinding = z
  .object({
    field: z
      .string()
      .meta({ description: 'what to fix: an invoice field, `positions[…]`, `customer.…` or `company.…` (set with PUT /company/)' }),
    rule: z.string().meta({ description: 'our rule (e.g. BANK_ACCOUNT_REQUIRED) or the official one (e.g. BR-CO-26, BR-DE-15)' }),
    message: z.string(),
  })
  .meta({ id: 'RuleFinding' });

export const Validation = z
  .object({
    valid: z.boolean().meta({
      description:
        'true exactly when POST /invoice/{id}/job (without vat_override_confirmed) would accept the invoice; its e-invoice then passes the official validators',
    }),
    errors: z.array(RuleFinding).meta({
      description:
        'everything finalization would refuse, with the same findings as its 422 (a VAT_OVERRIDE_REQUIRED finding is cleared by vat_override_confirmed: true)',
    }),
    warnings: z.array(RuleFinding).meta({
      description:
        "no obstacle to finalizing, e.g. an attachment the e-invoice XML cannot carry (it goes into the PDF), or VAT_RATE_NOT_IN_FORCE: a standard-rated position at a rate the seller's country (or, for a distance sale, the buyer's EU country) does not have on the date of supply (the service period's end, else the invoice date), naming the rates in force",
    }),
    checks: z.array(z.string()),
    vat_check: z.object({ status: VatCheck.shape.status }),
    vat_override_required: z.boolean().meta({
      description:
        "the customer's VAT ID is not confirmed (vat_check.status): finalization needs vat_override_confirmed: true (422 VAT_OVERRIDE_REQUIRED otherwise)",
    }),
  })
  .meta({
    id: 'Validation',
    example: {
      valid: false,
      errors: [
        {
          field: 'company.vat_id',
          rule: 'BR-CO-26',
          message:
            'The seller needs a VAT ID (BT-31), a seller identifier (BT-29, e.g. a GLN) or a legal registration identifier (BT-30, e.g. the commercial register entry) so that the buyer can identify it; a tax number (BT-32) is not enough. Set company vat_id, seller_identifier or registration_id with PUT /company/.',
        },
        {
          field: 'customer.vat_id',
          rule: 'VAT_OVERRIDE_REQUIRED',
          message:
            "the customer's VAT ID DE136695970 is not confirmed (VAT check status invalid; see GET /customer/1/vat-check): correct it, or finalize with vat_override_confirmed: true to issue the invoice anyway",
        },
      ],
      warnings: [{ field: 'positions', rule: 'SMALL_BUSINESS_NO_VAT', message: 'positions 1 will be issued without VAT (§ 19 UStG)' }],
      checks: ['customer', 'billing_address', 'positions', 'seller_profile', 'format_requirements', 'vat_id', 'vat_rates'],
      vat_check: { status: 'invalid' },
      vat_override_required: true,
    },
  });

export const StatusChanged = z.object({ message: z.string(), status: InvoiceStatus }).meta({ id: 'StatusChanged' });
/** Codes of warnings a successful answer may carry (never an error: the request succeeded). */
export const WARNING_CODES = ['DERIVED_VALUE_REPLACED'] as const;
/** A value the service derives itself and replaced in a successful answer (e.g. single_net_amount). */
export const DerivedValueWarning = z
  .object({
    field: z.string().meta({ description: 'the request field whose value was replaced, e.g. single_net_amount' }),
    code: z.enum(WARNING_CODES),
    message: z.string().meta({ description: "both values: the client's and the service's" }),
  })
  .meta({ id: 'DerivedValueWarning' });
const derivedWarnings = z.array(DerivedValueWarning).optional().meta({
  description:
    "present when the service replaced a value it derives (single_net_amount differing from quantity x unit_net_amount by more than 0.01); the request still succeeded with the service's value",
});
export const PositionAdded = z
  .object({ message: z.string(), id: z.number().int(), position_id: z.number().int(), invoice: Invoice, warnings: derivedWarnings })
  .meta({ id: 'PositionAdded' });
export const PositionUpdated = z.object({ message: z.string(), warnings: derivedWarnings }).meta({ id: 'PositionUpdated' });
export const Positions = z.object({ positions: z.array(Position) }).meta({ id: 'Positions' });
export const TaxTreatmentLabel = z.object({ id: TaxTreatmentId, label: z.string() }).loose().meta({ id: 'TaxTreatment' });
export const Template = z.object({ id: z.number().int(), name: z.string() }).loose().meta({ id: 'Template' });
