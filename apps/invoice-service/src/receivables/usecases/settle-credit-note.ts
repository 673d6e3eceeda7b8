import type { CompanyId } from '@inv/contracts';
import type { Emit } from '@inv/outbox';
import { conflict } from '@inv/service-kit';
import type { ClientSession } from 'mongoose';
import { canMoveByPayment, grossCentsOf, statusChanged, type InvoiceDoc } from '../../invoices';
import { appliedCreditCents, paymentStateOf, settledByCredit } from '../domain/payments';
import type { ReceivablesDeps } from '../deps';

/**
 * A credit note (381) with a preceding invoice was just finalized (complete-finalization.ts, same transaction): the
 * part of its gross applied to the invoice lowers the invoice's open amount (creditSettledCents, the invoice's
 * credited_amount). Once per credit note: the caller runs this only in the transaction whose DRAFT -> OPEN move of
 * the credit note matched, so a redelivered rendered event adds nothing.
 *
 * The rule: when the credit brings the open amount of an OPEN or SENT invoice to zero, the invoice is settled and
 * becomes PAID without a payment (paid_date = the credit note's date), announced as invoice.status-changed.v1 PAID
 * like PUT /invoice/{id}/status (statements, DATEV and webhooks follow). A PAID invoice owes nothing: nothing is applied
 * to it (the whole credit note is refunded as a payment on the credit note). Answers whether the invoice was settled.
 *
 * The credit note itself: the part of its gross that the invoice still owed (min(gross, the invoice's open amount
 * before it), domain/payments.ts appliedCreditCents) is applied, stored as the credit note's creditSettledCents (so
 * its open amount = gross - applied - refunded, everywhere paymentStateOf counts). Applied in full, the credit note is
 * settled too: PAID without a refund (paid_date = its date), announced with settledByCredit like the invoice. The rest
 * (money the buyer paid beyond what is now owed) stays open on the credit note: a refund owed, recorded as a payment.
 */
export async function settleCreditNoteIn(
  deps: Pick<ReceivablesDeps, 'invoices'>,
  session: ClientSession,
  emit: Emit,
  companyId: CompanyId,
  note: InvoiceDoc,
  now: Date,
): Promise<boolean> {
  if (note.typeCode !== '381' || note.precedingInvoiceId === undefined) return false;
  const cents = Math.abs(note.creditReservedCents ?? note.grossCents ?? grossCentsOf(note.positions));
  if (cents === 0) return false;
  const inv = await deps.invoices.get(companyId, note.precedingInvoiceId, session);
  if (!inv) return false;
  const state = paymentStateOf(inv);
  const paidDate = note.invoiceDate ?? now.toISOString().slice(0, 10);
  // paidCents written as it was: an invoice marked PAID before payments existed has none and counts as paid in full
  const set: Partial<InvoiceDoc> = { updatedAt: now, paidCents: state.paidCents };
  if (settledByCredit(state, inv.status, cents) && canMoveByPayment(inv.status, 'PAID'))
    Object.assign(set, {
      status: 'PAID',
      paidFromStatus: inv.status,
      paidDate,
    } satisfies Partial<InvoiceDoc>);
  // both documents count the part applied: what the invoice still owed, at most the credit note's gross
  const applied = appliedCreditCents(state, cents);
  if (!(await deps.invoices.settleCredit(companyId, inv.id, inv, applied, set, session)))
    throw conflict(`invoice ${inv.id} changed meanwhile; retry`, 'CONCURRENT_MODIFICATION');
  await applyToCreditNote(deps, session, emit, companyId, note, applied, paidDate, now);
  if (set.status !== 'PAID') return false;
  // one per credit note that settled the invoice (it may be reopened by a payment's reversal and settled again)
  emit(statusChanged(companyId, inv, 'PAID', `status-${companyId}-${inv.id}-PAID-credit-${note.id}`, { paidDate, settledByCredit: true }));
  return true;
}

/**
 * The credit note (just moved to OPEN in this transaction, nothing refunded yet) records `applied` cents as applied to
 * its invoice; all of its gross applied, it is PAID without a refund and announced so (settledByCredit).
 */
async function applyToCreditNote(
  deps: Pick<ReceivablesDeps, 'invoices'>,
  session: ClientSession,
  emit: Emit,
  companyId: CompanyId,
  note: InvoiceDoc,
  applied: number,
  paidDate: string,
  now: Date,
): Promise<void> {
  if (applied <= 0) return;
  const state = paymentStateOf({ ...note, paidCents: note.paidCents ?? 0 });
  const settled = applied >= state.grossCents - state.paidCents - state.discountCents && canMoveByPayment(note.status, 'PAID');
  const set: Partial<InvoiceDoc> = { creditSettledCents: applied, paidCents: state.paidCents, updatedAt: now };
  if (settled) Object.assign(set, { status: 'PAID', paidFromStatus: note.status, paidDate } satisfies Partial<InvoiceDoc>);
  if (!(await deps.invoices.settle(companyId, note.id, note, set, [], session)))
    throw conflict(`credit note ${note.id} changed meanwhile; retry`, 'CONCURRENT_MODIFICATION');
  if (!settled) return;
  emit(statusChanged(companyId, note, 'PAID', `status-${companyId}-${note.id}-PAID-applied`, { paidDate, settledByCredit: true }));
}
