import type { Envelope } from '@inv/bus';
import type { messages } from '@inv/contracts';
import type { z } from 'zod';
import { nextLedgerStatus } from '../domain/ledger-rules';
import type { CustomerDeps } from '../usecases/deps';

type Finalized = z.output<(typeof messages.events)['invoice.finalized.v1']>;

/** A finalized invoice or credit note: its amounts and dates enter the customer's ledger. */
export async function onInvoiceFinalized(deps: CustomerDeps, msg: Envelope<Finalized>) {
  const d = msg.data;
  // At most once per envelope id (recorded with the change); the changes are also idempotent by state
  // (statuses only move forward), which covers a re-publish under a new id.
  await deps.commitOnce(msg, async (session) => {
    // OPEN is the first status: a document that is already there (an early status change made it) keeps its
    // status, which is what nextLedgerStatus(current, 'OPEN') answers, without reading it first
    await deps.ledger.upsert(
      msg.companyId,
      d.invoiceId,
      {
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
      { status: nextLedgerStatus(undefined, 'OPEN') },
      session,
    );
  });
}
