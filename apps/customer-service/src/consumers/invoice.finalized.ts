import type { EventOf } from '@inv/runtime';
import { groupCommit } from '@inv/outbox';
import { nextLedgerStatus } from '../domain/ledger-rules';
import type { CustomerDeps } from '../support/deps';

/**
 * A finalized invoice or credit note: its amounts and dates enter the customer's ledger. At most once per envelope
 * id (recorded with the change); the change is also idempotent by state, which covers a re-publish under a new id.
 * The finalizations of one company that arrive together are booked in one transaction (groupCommit).
 */
export function finalizedInvoiceBooker(deps: CustomerDeps): (msg: EventOf<'invoice.finalized.v1'>) => Promise<void> {
  return groupCommit<EventOf<'invoice.finalized.v1'>>(deps, {
    key: (msg) => msg.companyId,
    inbox: (msg) => msg,
    apply: (batch, session) =>
      deps.ledger.upsertMany(
        batch.map(({ companyId, data: d }) => ({
          companyId,
          invoiceId: d.invoiceId,
          set: {
            customerId: d.customerId,
            invoiceId: d.invoiceId,
            finalized: true,
            number: d.number,
            typeCode: d.typeCode,
            invoiceDate: d.invoiceDate,
            dueDate: d.dueDate,
            currency: d.currency,
            totalGross: d.totalGross,
            updatedAt: deps.now(),
          },
          // OPEN is the first status: an entry that is already there (an early status change made it) keeps its
          // status, which is what nextLedgerStatus(current, 'OPEN') answers, without reading it first
          onInsert: { status: nextLedgerStatus(undefined, 'OPEN') },
        })),
        session,
      ),
  });
}
