import { z } from 'zod';
import { DecimalInput, IsoDate, NUMBER_BOUNDS, Pagination } from './common';
import { safeText } from './safe-text';

/** How a payment was made (the same values as `payment_method` of PUT /invoice/{id}/status PAID). */
export const PaymentMethod = z.enum(['BANK_TRANSFER', 'CASH', 'CARD', 'DIRECT_DEBIT', 'PAYPAL', 'OTHER']);
export type PaymentMethod = z.output<typeof PaymentMethod>;

/** Where a payment came from: POST /invoice/{id}/payments, the PAID shortcut of PUT /invoice/{id}/status, or a confirmed bank statement match. */
export const PaymentSource = z.enum(['manual', 'status', 'bank_statement']);
export type PaymentSource = z.output<typeof PaymentSource>;

/**
 * POST /invoice/{id}/payments. The date must be on or after the invoice date and at most one day in the future
 * (checked by invoice-service, which knows both). Skonto (the early-payment discount of the invoice's payment term,
 * fixed at finalization): a payment dated on or before the discount's last day whose amount is exactly the open amount
 * minus the discount closes the invoice, with the discount recorded on the payment. `skonto` left out decides that
 * automatically; `true` insists (409 SKONTO_NOT_APPLICABLE when it does not apply); `false` never grants it.
 */
export const PaymentCreate = z
  .object({
    amount: DecimalInput({
      maxDecimals: 2,
      min: 0.01,
      max: NUMBER_BOUNDS.maxAmount,
      description: 'amount paid in EUR (at least 0.01, at most the open amount)',
    }),
    date: IsoDate.meta({ description: 'the day the money arrived: not before the invoice date, at most one day ahead' }),
    method: PaymentMethod,
    reference: safeText(z.string().trim().max(200))
      .optional()
      .meta({ description: 'the remittance text or your own reference (at most 200 characters)' }),
    skonto: z.boolean().optional().meta({
      description:
        'left out: Skonto is granted when the payment is within the discount period and amount = open amount - discount; true: insist on it (409 SKONTO_NOT_APPLICABLE otherwise); false: never',
    }),
  })
  .strict()
  .meta({
    id: 'PaymentCreate',
    examples: [{ amount: '119.00', date: '2026-11-21', method: 'BANK_TRANSFER', reference: 'RE-2026-0042' }],
  });
export type PaymentCreate = z.output<typeof PaymentCreate>;

export const PaymentListQuery = Pagination.extend({
  include_reversed: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .default(true)
    .meta({ description: 'false: leave reversed payments out (default true: they are listed with reversed_at set)' }),
});
export type PaymentListQuery = z.output<typeof PaymentListQuery>;

const Money = z.number().meta({ description: 'amount in EUR, exact to the cent' });

export const Payment = z
  .object({
    id: z.number().int(),
    invoice_id: z.number().int(),
    amount: Money,
    discount: Money.meta({ description: 'Skonto granted with this payment (0 without)' }),
    date: z.string().meta({ description: 'calendar date YYYY-MM-DD', example: '2026-11-21' }),
    method: z.string().nullable(),
    reference: z.string().nullable(),
    source: PaymentSource,
    exported: z.boolean().meta({ description: 'in a DATEV export: can no longer be reversed' }),
    reversed_at: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({
    id: 'Payment',
    example: {
      id: 7,
      invoice_id: 42,
      amount: 116.62,
      discount: 2.38,
      date: '2026-11-21',
      method: 'BANK_TRANSFER',
      reference: 'RE-2026-0042',
      source: 'manual',
      exported: false,
      reversed_at: null,
      created_at: '2026-11-21T10:15:00.000Z',
    },
  });
export type Payment = z.output<typeof Payment>;

/** The answer of POST /invoice/{id}/payments and of a reversal: the payment and the invoice's state after it. */
export const PaymentRecorded = Payment.extend({
  message: z.string(),
  open_amount: Money.meta({ description: "the invoice's open amount after this change" }),
  invoice_status: z.enum(['OPEN', 'SENT', 'PAID']),
}).meta({
  id: 'PaymentRecorded',
  example: {
    message: 'payment recorded; the invoice is paid in full',
    id: 7,
    invoice_id: 42,
    amount: 116.62,
    discount: 2.38,
    date: '2026-11-21',
    method: 'BANK_TRANSFER',
    reference: 'RE-2026-0042',
    source: 'manual',
    exported: false,
    reversed_at: null,
    created_at: '2026-11-21T10:15:00.000Z',
    open_amount: 0,
    invoice_status: 'PAID',
  },
});

export const PaymentList = z
  .object({
    payments: z.array(Payment),
    total: z.number().int(),
    page: z.number().int(),
    limit: z.number().int(),
    gross_amount: Money.nullable(),
    paid_amount: Money,
    skonto_amount: Money,
    open_amount: Money.nullable(),
  })
  .meta({ id: 'PaymentList' });
