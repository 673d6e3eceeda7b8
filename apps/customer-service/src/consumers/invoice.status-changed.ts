import type { Envelope } from '@inv/bus';
import type { messages } from '@inv/contracts';
import type { z } from 'zod';
import type { LedgerInvoiceDoc } from '../db/ledger';
import { nextLedgerStatus } from '../domain/ledger-rules';
import type { CustomerDeps } from '../usecases/deps';

type StatusChanged = z.output<(typeof messages.events)['invoice.status-changed.v1']>;

/** SENT, PAID or CANCELLED: moves the ledger status forward (never back) and records the payment date. */
export async function onInvoiceStatusChanged(deps: CustomerDeps, msg: Envelope<StatusChanged>) {
  const d = msg.data;
  await deps.commitOnce(msg, async (session) => {
    const current = await deps.ledger.get(msg.companyId, d.invoiceId, session);
    const status = nextLedgerStatus(current?.status, d.status);
    const set: Partial<LedgerInvoiceDoc> = { customerId: d.customerId, invoiceId: d.invoiceId, status, updatedAt: deps.now() };
    if (status === 'PAID' && d.status === 'PAID') set.paidDate = d.paidDate ?? msg.occurredAt.slice(0, 10);
    if (status === 'CANCELLED' && d.status === 'CANCELLED') set.cancelledDate = msg.occurredAt.slice(0, 10);
    // Until the finalized event arrives, keep what this event knows so the ledger can show it then.
    if (!current?.finalized) {
      if (d.number) set.number = d.number;
      if (d.totalGross) set.totalGross = d.totalGross;
    }
    await deps.ledger.upsert(msg.companyId, d.invoiceId, set, { finalized: false }, session);
  });
}
