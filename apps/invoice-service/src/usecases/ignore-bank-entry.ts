import type { CompanyId } from '@inv/contracts';
import { AppError, conflict, notFound } from '@inv/service-kit';
import type { BankEntryDoc } from '../db/bank-statements';
import type { InvoiceDeps } from '../support/deps';

/**
 * POST /bank-statements/{id}/entries/{entryId}/ignore: the entry needs no payment (a credit that is no invoice's, a
 * debit). Ignoring again changes nothing; a confirmed entry is 409 BANK_ENTRY_ALREADY_CONFIRMED (reverse its payment).
 */
export async function ignoreBankEntry(
  deps: InvoiceDeps,
  companyId: CompanyId,
  statementId: number,
  entryId: number,
): Promise<BankEntryDoc> {
  const entry = await deps.bankStatements.getEntry(companyId, statementId, entryId);
  if (!entry) throw notFound(`entry ${entryId} of bank statement ${statementId}`);
  if (entry.state === 'ignored') return entry;
  if (entry.state === 'confirmed')
    throw new AppError('conflict', `entry ${entryId} was confirmed as payment ${entry.confirmed?.paymentId}: it cannot be ignored`, {
      code: 'BANK_ENTRY_ALREADY_CONFIRMED',
      extra: { payment_id: entry.confirmed?.paymentId, invoice_id: entry.confirmed?.invoiceId },
    });
  const moved = await deps.commit((session) =>
    deps.bankStatements.moveEntry(companyId, statementId, entryId, 'open', { state: 'ignored', ignoredAt: deps.now() }, [], session),
  );
  if (!moved) throw conflict(`entry ${entryId} changed meanwhile; retry`, 'CONCURRENT_MODIFICATION');
  return moved;
}
