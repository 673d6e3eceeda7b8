import type { BankEntryConfirm, CompanyId } from '@inv/contracts';
import { AppError, conflict, invalidData, notFound } from '@inv/service-kit';
import type { ClientSession } from 'mongoose';
import { paymentCounter } from '../../platform';
import type { BankEntryDoc } from '../db/bank-statements';
import { amountToCents, centsToText } from '../domain/payments';
import type { ReceivablesDeps } from '../deps';
import { recordPaymentIn } from './record-payment';

export interface ConfirmedMatch {
  entry: BankEntryDoc;
  /** false: the entry was confirmed before (the same booking): nothing changed. */
  created: boolean;
}

const notACredit = () =>
  new AppError('conflict', 'only credits can be confirmed as payments: the entry is a debit or a reversal', {
    code: 'BANK_ENTRY_NOT_A_CREDIT',
  });

/**
 * POST /bank-statements/{id}/entries/{entryId}/confirm: books the entry's credit as a payment (source
 * `bank_statement`, method BANK_TRANSFER) on the best proposal, or on `invoice_id` / with `amount` (a correction),
 * dated `date` or the entry's value (else booking) date. The payment and the entry's move to `confirmed` (with the
 * payment id) are one transaction, so confirming again records nothing: the same confirmation answers the entry as
 * it is, another invoice or amount is 409 BANK_ENTRY_ALREADY_CONFIRMED. An ignored entry can still be confirmed, and so
 * can a confirmed one whose payment was reversed since (the new payment replaces it on the entry).
 * Errors of recordPayment pass through (409 INVOICE_ALREADY_PAID, PAYMENT_EXCEEDS_OPEN_AMOUNT, 400 date).
 */
export async function confirmBankMatch(
  deps: ReceivablesDeps,
  companyId: CompanyId,
  statementId: number,
  entryId: number,
  input: BankEntryConfirm,
): Promise<ConfirmedMatch> {
  // two confirmations at the same moment: the one that lost sees the invoice or the entry changed and tries again,
  // finding the entry confirmed (200, the same payment) instead of answering 409
  for (let attempt = 1; ; attempt++) {
    try {
      return await confirmOnce(deps, companyId, statementId, entryId, input);
    } catch (err) {
      if (!(err instanceof AppError && err.code === 'CONCURRENT_MODIFICATION') || attempt >= 3) throw err;
    }
  }
}

async function confirmOnce(
  deps: ReceivablesDeps,
  companyId: CompanyId,
  statementId: number,
  entryId: number,
  input: BankEntryConfirm,
): Promise<ConfirmedMatch> {
  const entry = await deps.bankStatements.getEntry(companyId, statementId, entryId);
  if (!entry) throw notFound(`entry ${entryId} of bank statement ${statementId}`);
  if (!entry.credit || entry.reversal || entry.cents === undefined) throw notACredit();
  // invoices are in EUR: a credit in another currency is no payment of one at its face value (a USD 100 is not EUR 100)
  if (entry.currency !== 'EUR')
    throw new AppError(
      'conflict',
      `entry ${entryId} is a credit in ${entry.currency}; invoices are in EUR: record the EUR amount the bank booked with POST /invoice/{id}/payments`,
      { code: 'BANK_ENTRY_CURRENCY_MISMATCH', extra: { currency: entry.currency } },
    );
  const again = (e: BankEntryDoc): ConfirmedMatch => {
    const c = e.confirmed!;
    const other =
      (input.invoice_id !== undefined && input.invoice_id !== c.invoiceId) ||
      (input.amount !== undefined && amountToCents(input.amount) !== c.amountCents);
    if (other)
      throw new AppError(
        'conflict',
        `entry ${entryId} was confirmed already as payment ${c.paymentId} of ${centsToText(c.amountCents)} on invoice ${c.invoiceId}`,
        { code: 'BANK_ENTRY_ALREADY_CONFIRMED', extra: { payment_id: c.paymentId, invoice_id: c.invoiceId } },
      );
    return { entry: e, created: false };
  };
  /** A confirmed entry whose payment was reversed since (POST /invoice/{id}/payments/{paymentId}/reverse) may be booked again. */
  const stillBooked = async (e: BankEntryDoc, session?: ClientSession) =>
    e.state === 'confirmed' && !(await deps.payments.get(companyId, e.confirmed!.paymentId, session))?.reversedAt;
  if (await stillBooked(entry)) return again(entry);

  const invoiceId = input.invoice_id ?? entry.proposals[0]?.invoiceId;
  if (invoiceId === undefined)
    throw new AppError('conflict', `entry ${entryId} has no proposal: name the invoice to book it on (invoice_id)`, {
      code: 'BANK_ENTRY_UNMATCHED',
    });
  const proposal = entry.proposals.find((p) => p.invoiceId === invoiceId);
  const amountCents = input.amount !== undefined ? amountToCents(input.amount) : (proposal?.amountCents ?? entry.cents);
  if (amountCents > entry.cents)
    throw new AppError('conflict', `the amount ${centsToText(amountCents)} exceeds the credit of ${entry.amount}`, {
      code: 'BANK_AMOUNT_EXCEEDS_CREDIT',
    });
  const date = input.date ?? entry.valueDate ?? entry.bookingDate ?? deps.now().toISOString().slice(0, 10);
  if (!date) throw invalidData('date is required', [{ path: 'date', message: 'required' }]);
  const reference = (entry.unstructured[0] ?? entry.references[0] ?? entry.endToEndId ?? '').slice(0, 200) || undefined;

  const paymentId = await deps.counters.next(paymentCounter(companyId));
  return deps.commit(async (session, emit) => {
    // read again inside the transaction: a confirmation that won meanwhile is answered as such
    const current = await deps.bankStatements.getEntry(companyId, statementId, entryId, session);
    if (!current) throw notFound(`entry ${entryId} of bank statement ${statementId}`);
    if (await stillBooked(current, session)) return again(current);
    // the customer the payer IBAN paid for (later imports know the payer by it)
    const customerId = proposal?.customerId ?? (await deps.invoices.get(companyId, invoiceId, session))?.customerId ?? 0;
    // the entry first: of two confirmations at the same moment, the second's write to it conflicts before any payment
    const moved = await deps.bankStatements.moveEntry(
      companyId,
      statementId,
      entryId,
      current.state,
      {
        state: 'confirmed',
        confirmed: { paymentId, invoiceId, customerId, amountCents, at: deps.now() },
      },
      ['ignoredAt'],
      session,
      current.confirmed?.paymentId,
    );
    if (!moved) throw conflict(`entry ${entryId} changed meanwhile; retry`, 'CONCURRENT_MODIFICATION');
    await recordPaymentIn(
      deps,
      session,
      emit,
      companyId,
      invoiceId,
      { amount: centsToText(amountCents), date, method: 'BANK_TRANSFER', reference },
      'bank_statement',
      paymentId,
    );
    return { entry: moved, created: true };
  });
}
