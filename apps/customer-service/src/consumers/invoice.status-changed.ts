import type { EventOf } from '@inv/runtime';
import type { LedgerInvoiceDoc } from '../db/ledger';
import { nextLedgerStatus } from '../domain/ledger-rules';
import type { CustomerDeps } from '../support/deps';

/**
 * SENT, PAID or CANCELLED: moves the ledger status forward (never back) and records the payment date and whether a
 * credit note settled it (settledByCredit: then the PAID books no payment).
 */
export async function onInvoiceStatusChanged(deps: CustomerDeps, msg: EventOf<'invoice.status-changed.v1'>) {
  const d = msg.data;
  await deps.commitOnce(msg, async (session) => {
    const current = await deps.ledger.get(msg.companyId, d.invoiceId, session);
    const status = nextLedgerStatus(current?.status, d.status);
    const set: Partial<LedgerInvoiceDoc> = { customerId: d.customerId, invoiceId: d.invoiceId, status, updatedAt: deps.now() };
    if (status === 'PAID' && d.status === 'PAID') set.paidDate = d.paidDate ?? msg.occurredAt.slice(0, 10);
    // a credit note settled it: that PAID is no payment. Sticky (a credit is never taken back), so any order gives the same
    if (d.status === 'PAID' && d.settledByCredit === true) set.settledByCredit = true;
    if (status === 'CANCELLED' && d.status === 'CANCELLED') set.cancelledDate = msg.occurredAt.slice(0, 10);
    // Until the finalized event arrives, keep what this event knows so the ledger can show it then.
    if (!current?.finalized) {
      if (d.number) set.number = d.number;
      if (d.totalGross) set.totalGross = d.totalGross;
    }
    await deps.ledger.upsert(msg.companyId, d.invoiceId, set, { finalized: false }, session);
  });
}
