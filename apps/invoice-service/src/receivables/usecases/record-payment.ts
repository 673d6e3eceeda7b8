import type { CompanyId, PaymentMethod, PaymentSource } from '@inv/contracts';
import type { Emit } from '@inv/outbox';
import { eventMessage } from '@inv/runtime';
import { AppError, conflict, invalidData, notFound } from '@inv/service-kit';
import type { ClientSession } from 'mongoose';
import { paymentCounter } from '../../platform';
import { canMoveByPayment, statusChanged, type InvoiceDoc } from '../../invoices';
import type { PaymentDoc } from '../db/payments';
import {
  amountToCents,
  centsToNumber,
  centsToText,
  decidePayment,
  paymentDateProblem,
  paymentStateOf,
  takesPayments,
} from '../domain/payments';
import type { PaymentDeps, ReceivablesDeps } from '../deps';

/** A payment to record: amount as a decimal string with at most 2 decimals (> 0), date YYYY-MM-DD. */
export interface PaymentInput {
  amount: string;
  date: string;
  method?: PaymentMethod;
  reference?: string;
  /** undefined: Skonto decided automatically; true: insist; false: never (domain/payments.ts decidePayment). */
  skonto?: boolean;
}

export interface RecordedPayment {
  payment: PaymentDoc;
  /** Open amount after the payment, in EUR. */
  openAmount: number;
  paidInFull: boolean;
}

/** 409 PAYMENT_EXCEEDS_OPEN_AMOUNT, naming the open amount (detail and `open_amount`). */
export function exceedsOpenAmount(inv: Pick<InvoiceDoc, 'id' | 'number'>, openCents: number, amountCents: number) {
  return new AppError(
    'conflict',
    `the payment of ${centsToText(amountCents)} exceeds the open amount of invoice ${inv.number}: ${centsToText(openCents)}`,
    { code: 'PAYMENT_EXCEEDS_OPEN_AMOUNT', extra: { invoice_id: inv.id, open_amount: centsToNumber(openCents) } },
  );
}

/**
 * Records a payment on a finalized invoice (or a refund on a credit note) inside a transaction the caller runs
 * (`deps.commit`): for callers that change their own documents with it (a confirmed bank statement match). The
 * invoice's paid cents change only if they are what was read (db/invoices.ts settle), so two concurrent payments
 * never overpay: the transaction that loses retries and sees the other's payment.
 */
export async function recordPaymentIn(
  deps: PaymentDeps,
  session: ClientSession,
  emit: Emit,
  companyId: CompanyId,
  invoiceId: number,
  input: PaymentInput,
  source: PaymentSource,
  paymentId: number,
): Promise<RecordedPayment> {
  const inv = await deps.invoices.get(companyId, invoiceId, session);
  if (!inv) throw notFound(`invoice ${invoiceId}`);
  if (!takesPayments(inv.status))
    throw conflict(
      inv.status === 'PAID'
        ? `invoice ${inv.number} is paid in full: nothing is open`
        : `invoice ${invoiceId} is ${inv.status}; only finalized invoices (OPEN, SENT) take payments`,
      inv.status === 'PAID' ? 'INVOICE_ALREADY_PAID' : 'INVOICE_NOT_PAYABLE',
    );
  // the PAID shortcut of PUT /invoice/{id}/status keeps accepting the paid_date it always accepted (the specification's)
  const dateProblem =
    source === 'status' ? undefined : paymentDateProblem(input.date, inv.invoiceDate, deps.now().toISOString().slice(0, 10));
  if (dateProblem) throw invalidData(`date ${dateProblem}`, [{ path: 'date', message: dateProblem }]);
  // the HTTP schema checks this already; callers without HTTP (bank statements) get the same answer
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(input.amount) || amountToCents(input.amount) <= 0)
    throw invalidData('amount must be a positive decimal number with at most 2 decimals', [
      { path: 'amount', message: 'must be at least 0.01, at most 999999999.99, with at most 2 decimals' },
    ]);
  const amountCents = amountToCents(input.amount);
  const state = paymentStateOf(inv);
  const decision = decidePayment(state, amountCents, input.date, inv.snapshot?.earlyPaymentDiscount, input.skonto);
  if (!decision.ok) {
    if (decision.reason === 'SKONTO_NOT_APPLICABLE')
      throw new AppError('conflict', `Skonto does not apply: ${decision.detail}`, { code: 'SKONTO_NOT_APPLICABLE' });
    throw exceedsOpenAmount(inv, decision.openCents, amountCents);
  }
  const now = deps.now();
  const payment: Omit<PaymentDoc, '_id'> = {
    companyId,
    id: paymentId,
    invoiceId,
    amount: centsToText(decision.amountCents),
    discount: centsToText(decision.discountCents),
    date: input.date,
    method: input.method,
    reference: input.reference || undefined,
    source,
    createdAt: now,
  };
  const paidCents = state.paidCents + decision.amountCents;
  const discountCents = state.discountCents + decision.discountCents;
  const set: Partial<InvoiceDoc> = { paidCents, discountCents, updatedAt: now };
  if (decision.paidInFull && canMoveByPayment(inv.status, 'PAID'))
    Object.assign(set, {
      status: 'PAID',
      paidFromStatus: inv.status,
      paidDate: input.date,
      paymentMethod: input.method,
      paymentReference: input.reference || undefined,
    } satisfies Partial<InvoiceDoc>);
  if (!(await deps.invoices.settle(companyId, invoiceId, inv, set, [], session)))
    throw conflict(`invoice ${invoiceId} changed meanwhile; retry`, 'CONCURRENT_MODIFICATION');
  await deps.payments.insert(payment, session);
  // the status first: in an invoice's webhook sequence, PAID directly follows SENT as before payments existed
  if (set.status === 'PAID')
    // one per payment that closed the document: it may be paid, reopened by a reversal and paid again
    emit(statusChanged(companyId, inv, 'PAID', `status-${companyId}-${invoiceId}-PAID-${paymentId}`, { paidDate: input.date }));
  emit(
    eventMessage(
      'invoice.payment-recorded.v1',
      companyId,
      {
        invoiceId,
        customerId: inv.customerId,
        number: inv.number,
        typeCode: inv.typeCode,
        paymentId,
        amount: payment.amount,
        discount: decision.discountCents > 0 ? payment.discount : undefined,
        date: input.date,
        method: input.method,
        reference: payment.reference,
        source,
        openAmount: centsToText(decision.openAfterCents),
        paidInFull: decision.paidInFull,
        currency: 'EUR',
      },
      `payment-recorded-${companyId}-${paymentId}`,
    ),
  );
  return {
    payment: { _id: `${companyId}:${paymentId}`, ...payment },
    openAmount: centsToNumber(decision.openAfterCents),
    paidInFull: decision.paidInFull,
  };
}

/**
 * Records a payment (its own transaction): POST /invoice/{id}/payments (`manual`), the PAID shortcut of
 * PUT /invoice/{id}/status (`status`), a confirmed bank statement match (`bank_statement`). Publishes
 * invoice.payment-recorded.v1, and invoice.status-changed.v1 PAID when the open amount reaches zero.
 * Errors: 404 NOT_FOUND, 409 INVOICE_NOT_PAYABLE (draft, cancelled), 409 INVOICE_ALREADY_PAID,
 * 409 PAYMENT_EXCEEDS_OPEN_AMOUNT (`open_amount`), 409 SKONTO_NOT_APPLICABLE, 400 VALIDATION_ERROR (date, amount).
 */
export async function recordPayment(
  deps: ReceivablesDeps,
  companyId: CompanyId,
  invoiceId: number,
  input: PaymentInput,
  source: PaymentSource,
): Promise<RecordedPayment> {
  const paymentId = await deps.counters.next(paymentCounter(companyId));
  return deps.commit((session, emit) => recordPaymentIn(deps, session, emit, companyId, invoiceId, input, source, paymentId));
}
