import type { InvoiceSnapshot, InvoiceStatus } from '@inv/contracts';
import { toDecimal } from '@inv/money';
import { grossCentsOf, type InvoiceDoc } from '../../invoices';

/**
 * Payments of a finalized document. Everything is counted in whole cents (amounts have at most 2 decimals).
 * open = gross - paid - discounts - credited; an invoice (380) is paid by the buyer, a credit note (381) is refunded by
 * us: the same mechanics, "paid" meaning refunded. A finalized credit note lowers its invoice's open amount by the part
 * of its gross the invoice still owed (`credited`, InvoiceDoc.creditSettledCents; appliedCreditCents below). The open
 * amount reaching zero makes the document PAID.
 */
export interface PaymentState {
  grossCents: number;
  paidCents: number;
  discountCents: number;
  /**
   * An invoice: what its finalized credit notes applied to it. A credit note: the part of its gross applied to its
   * invoice (appliedCreditCents; the rest is refunded as payments). The two agree: a credit note's applied part is
   * counted on both.
   */
  creditedCents: number;
}

/**
 * The payment state of a finalized document (grossCents of older documents derived from their positions). A document
 * marked PAID before payments were recorded has no paidCents: it counts as paid in full (one payment of its gross).
 */
export const paymentStateOf = (
  inv: Pick<InvoiceDoc, 'status' | 'grossCents' | 'positions' | 'paidCents' | 'discountCents' | 'creditSettledCents'>,
): PaymentState => {
  const grossCents = inv.grossCents ?? grossCentsOf(inv.positions);
  const discountCents = inv.discountCents ?? 0;
  const creditedCents = inv.creditSettledCents ?? 0;
  // a credit note that settles an invoice, or counts on one marked PAID this way, writes its paidCents (settle-credit-note.ts)
  const paidCents = inv.paidCents ?? (inv.status === 'PAID' ? grossCents - discountCents : 0);
  return { grossCents, paidCents, discountCents, creditedCents };
};

export const amountToCents = (amount: string): number => toDecimal(amount, 'amount').times(100).round().toNumber();
export const centsToNumber = (cents: number): number => toDecimal(cents).dividedBy(100).toNumber();
export const centsToText = (cents: number): string => toDecimal(cents).dividedBy(100).toFixed(2);

export const openCentsOf = (s: PaymentState): number => Math.max(0, s.grossCents - s.paidCents - s.discountCents - s.creditedCents);

/** Only finalized documents that are not fully paid take payments. */
export const takesPayments = (status: InvoiceStatus): boolean => status === 'OPEN' || status === 'SENT';

/**
 * A finalized credit note of `creditCents` gross lowers the open amount of the invoice it corrects (`state` before
 * it, `status` the invoice's). If that brings the open amount of an OPEN or SENT invoice to zero, the invoice is
 * settled: it becomes PAID without a payment (paid stays what was paid). A PAID invoice stays PAID (money the buyer
 * paid beyond what is now owed is refunded as a payment on the credit note).
 */
export function settledByCredit(state: PaymentState, status: InvoiceStatus, creditCents: number): boolean {
  return takesPayments(status) && openCentsOf({ ...state, creditedCents: state.creditedCents + creditCents }) === 0;
}

/**
 * The part of a credit note of `creditCents` gross applied to the invoice it corrects (`state` before it): what the
 * invoice still owed, at most the credit note's gross. The rest is a refund owed to the buyer (the credit note's open
 * amount). An invoice already paid in full takes nothing: the whole credit note is to be refunded.
 */
export const appliedCreditCents = (state: PaymentState, creditCents: number): number =>
  Math.max(0, Math.min(creditCents, openCentsOf(state)));

export type EarlyPaymentDiscount = NonNullable<InvoiceSnapshot['earlyPaymentDiscount']>;

export type PaymentDecision =
  | { ok: true; amountCents: number; discountCents: number; openAfterCents: number; paidInFull: boolean }
  | { ok: false; reason: 'EXCEEDS_OPEN_AMOUNT'; openCents: number }
  | { ok: false; reason: 'SKONTO_NOT_APPLICABLE'; detail: string };

/**
 * The rule of a payment of `amountCents` dated `date` on a document in `state`:
 * - Skonto (the term's early-payment discount, fixed at finalization as `discount`): granted when no discount was
 *   granted before, the payment is dated on or before `discount.untilDate`, and amount = open - discount amount
 *   (so the payment closes the document). `skonto` undefined decides automatically, true insists, false never.
 * - otherwise the amount must not exceed the open amount.
 */
export function decidePayment(
  state: PaymentState,
  amountCents: number,
  date: string,
  discount: EarlyPaymentDiscount | undefined,
  skonto: boolean | undefined,
): PaymentDecision {
  const open = openCentsOf(state);
  const discountCents = discount ? amountToCents(discount.amount) : 0;
  const skontoFits =
    discount !== undefined &&
    discountCents > 0 &&
    state.discountCents === 0 &&
    date <= discount.untilDate &&
    amountCents === open - discountCents;
  if (skonto === true && !skontoFits) {
    const detail = !discount
      ? 'the invoice has no early-payment discount (Skonto)'
      : state.discountCents > 0
        ? 'a Skonto discount was already granted on this invoice'
        : date > discount.untilDate
          ? `the Skonto period ended on ${discount.untilDate}`
          : `with Skonto the payment must be exactly ${centsToText(open - discountCents)} (open amount ${centsToText(open)} minus discount ${centsToText(discountCents)})`;
    return { ok: false, reason: 'SKONTO_NOT_APPLICABLE', detail };
  }
  const granted = skonto !== false && skontoFits ? discountCents : 0;
  if (amountCents + granted > open) return { ok: false, reason: 'EXCEEDS_OPEN_AMOUNT', openCents: open };
  const openAfterCents = open - amountCents - granted;
  return { ok: true, amountCents, discountCents: granted, openAfterCents, paidInFull: openAfterCents === 0 };
}

/** A payment date: not before the invoice date, at most one day after `today` (time zones). Answers the problem, if any. */
export function paymentDateProblem(date: string, invoiceDate: string | undefined, today: string): string | undefined {
  if (invoiceDate && date < invoiceDate) return `must not be before the invoice date ${invoiceDate}`;
  const limit = new Date(`${today}T00:00:00Z`);
  limit.setUTCDate(limit.getUTCDate() + 1);
  if (date > limit.toISOString().slice(0, 10)) return `must not be later than ${limit.toISOString().slice(0, 10)} (tomorrow)`;
  return undefined;
}
