import type { CompanyId } from '@inv/contracts';
import { AppError, conflict, notFound } from '@inv/service-kit';
import type { BankEntryDoc } from '../db/bank-statements';
import type { ReceivablesDeps } from '../deps';

/**
 * POST /bank-statements/{id}/entries/{entryId}/ignore: the entry needs no payment (a credit that is no invoice's, a
 * debit). Ignoring again changes nothing; a confirmed entry is 409 BANK_ENTRY_ALREADY_CONFIRMED unless its payment was
 * reversed (POST /invoice/{id}/payments/{paymentId}/reverse).
 */
export async function ignoreBankEntry(
  deps: ReceivablesDeps,
  companyId: CompanyId,
  statementId: number,
  entryId: number,
): Promise<BankEntryDoc> {
  const entry = await deps.bankStatements.getEntry(companyId, statementId, entryId);
  if (!entry) throw notFound(`entry ${entryId} of bank statement ${statementId}`);
  if (entry.state === 'ignored') return entry;
  // a confirmed entry whose payment was reversed since may be ignored
  const reversed = entry.state === 'confirmed' && (await deps.payments.get(companyId, entry.confirmed!.paymentId))?.reversedAt;
  if (entry.state === 'confirmed' && !reversed)
    throw new AppError('conflict', `entry ${entryId} was confirmed as payment ${entry.confirmed?.paymentId}: it cannot be ignored`, {
      code: 'BANK_ENTRY_ALREADY_CONFIRMED',
      extra: { payment_id: entry.confirmed?.paymentId, invoice_id: entry.confirmed?.invoiceId },
    });
  const moved = await deps.commit((session) =>
    deps.bankStatements.moveEntry(
      companyId,
      statementId,
      entryId,
      entry.state,
      { state: 'ignored', ignoredAt: deps.now() },
      ['confirmed'],
      session,
      entry.confirmed?.paymentId,
    ),
  );
  if (!moved) throw conflict(`entry ${entryId} changed meanwhile; retry`, 'CONCURRENT_MODIFICATION');
  return moved;
}
