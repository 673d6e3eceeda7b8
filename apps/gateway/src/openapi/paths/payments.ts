import { Payment, PaymentCreate, PaymentList, PaymentListQuery, PaymentRecorded } from '@inv/contracts';
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

// invoice 42: 119.00 gross, 2 % Skonto (2.38) until 2026-11-27
const partial = {
  id: 6,
  invoice_id: 42,
  amount: 50,
  discount: 0,
  date: '2026-11-20',
  method: 'BANK_TRANSFER',
  reference: 'RE-2026-0042 part 1',
  source: 'manual',
  exported: true,
  reversed_at: null,
  created_at: '2026-11-20T08:02:11.413Z',
};
const withSkonto = {
  id: 7,
  invoice_id: 42,
  amount: 66.62,
  discount: 2.38,
  date: '2026-11-25',
  method: 'BANK_TRANSFER',
  reference: 'RE-2026-0042',
  source: 'manual',
  exported: false,
  reversed_at: null,
  created_at: '2026-11-25T10:15:00.000Z',
};

const RULES =
  'Only finalized invoices (OPEN, SENT) take payments; a credit note takes refunds the same way. ' +
  'open amount = gross - payments - Skonto; at 0 the invoice becomes PAID (webhook invoice.status_changed, and invoice.payment_recorded for every payment). ' +
  'Skonto: the early-payment discount of the payment term, fixed at finalization. A payment dated on or before its last day whose amount is exactly ' +
  'the open amount minus the discount closes the invoice with the discount recorded (`discount`); `skonto: false` never grants it, `skonto: true` insists. ' +
  'A payment above the open amount is refused (409 PAYMENT_EXCEEDS_OPEN_AMOUNT with `open_amount`); two payments at the same moment never overpay together. ' +
  'The date must not be before the invoice date nor later than tomorrow.';

/** /invoice/{id}/payments (invoice-service): payments and refunds of finalized invoices and credit notes. */
export function paymentPaths(): Record<string, Record<string, unknown>> {
  const r = (o: Omit<Operation, 'tags'>): Operation => ({ tags: ['Payments'], ...o });
  const invoiceId = intId('id', 'invoice id');
  return {
    '/invoice/{id}/payments': {
      parameters: [invoiceId],
      get: r({
        operationId: 'listPayments',
        summary: 'List the payments of an invoice',
        description:
          'Oldest first, reversed ones included (with `reversed_at`) unless include_reversed=false; with the invoice’s paid and open amounts.',
        parameters: queryParams(PaymentListQuery),
        responses: {
          200: jsonExample(
            PaymentList,
            {
              payments: [partial, withSkonto],
              total: 2,
              page: 1,
              limit: 25,
              gross_amount: 119,
              paid_amount: 116.62,
              skonto_amount: 2.38,
              open_amount: 0,
            },
            'a page of payments',
            paginationHeaders,
          ),
          ...notFound(),
          ...commonErrors(),
        },
      }),
      post: r({
        operationId: 'recordPayment',
        summary: 'Record a payment',
        description: `${RULES} Idempotency-Key makes a retry safe.`,
        requestBody: body(PaymentCreate, { amount: 66.62, date: '2026-11-25', method: 'BANK_TRANSFER', reference: 'RE-2026-0042' }),
        responses: {
          201: jsonExample(
            PaymentRecorded,
            { message: 'payment recorded; the invoice is paid in full', ...withSkonto, open_amount: 0, invoice_status: 'PAID' },
            'recorded; Location names it',
          ),
          ...notFound(),
          ...conflict(
            'draft or cancelled (INVOICE_NOT_PAYABLE), paid in full (INVOICE_ALREADY_PAID), above the open amount (PAYMENT_EXCEEDS_OPEN_AMOUNT, `open_amount`), ' +
              'skonto: true that does not apply (SKONTO_NOT_APPLICABLE), or changed at the same moment (CONCURRENT_MODIFICATION)',
          ),
          ...bodyErrors(),
          ...commonErrors(),
        },
      }),
    },
    '/invoice/{id}/payments/{paymentId}': {
      parameters: [invoiceId, intId('paymentId', 'payment id')],
      get: r({
        operationId: 'getPayment',
        summary: 'Get a payment',
        responses: { 200: jsonExample(Payment, withSkonto), ...notFound(), ...commonErrors() },
      }),
    },
    '/invoice/{id}/payments/{paymentId}/reverse': {
      parameters: [invoiceId, intId('paymentId', 'payment id')],
      post: r({
        operationId: 'reversePayment',
        summary: 'Reverse a payment',
        description:
          'Undoes a payment (a wrong booking, a returned direct debit) while it is not in a DATEV export: it stays listed with `reversed_at`, ' +
          'the invoice is open again by its amount and discount, and a PAID invoice returns to SENT (or OPEN if it was never sent). ' +
          'Webhook invoice.payment_reversed. Reversing a reversed payment again answers it unchanged. No body.',
        responses: {
          200: jsonExample(
            PaymentRecorded,
            {
              message: 'payment reversed',
              ...withSkonto,
              reversed_at: '2026-11-26T07:40:00.000Z',
              open_amount: 69,
              invoice_status: 'SENT',
            },
            'reversed',
          ),
          ...notFound(),
          ...conflict('in a DATEV export (PAYMENT_EXPORTED), or changed at the same moment (CONCURRENT_MODIFICATION)'),
          ...commonErrors(),
        },
      }),
    },
  };
}
