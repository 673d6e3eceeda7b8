import type { Envelope } from '@inv/bus';
import type { messages } from '@inv/contracts';
import type { ClientSession } from 'mongoose';
import type { z } from 'zod';
import type { LedgerInvoiceDoc } from '../db/ledger';
import { nextLedgerStatus } from '../domain/ledger';
import type { CustomerDeps } from '../usecases/deps';

type Finalized = z.output<(typeof messages.events)['invoice.finalized.v1']>;
type StatusChanged = z.output<(typeof messages.events)['invoice.status-changed.v1']>;

function duplicateKey(err: unknown): boolean {
  return (err as { code?: number }).code === 11000;
}

/**
 * Applies an event at most once: its envelope id is recorded in the same transaction as the change, so
 * a redelivered event (same id) finds the record and changes nothing. The changes themselves are also
 * idempotent by state (statuses only move forward), which covers a re-publish under a new id.
 */
async function once(deps: CustomerDeps, msg: Envelope, apply: (session: ClientSession) => Promise<void>) {
  try {
    await deps.conn.transaction(async (session) => {
      await deps.ledger.processed.create([{ _id: msg.id, companyId: msg.companyId, type: msg.type, processedAt: deps.now() }], { session });
      await apply(session);
    });
  } catch (err) {
    if (duplicateKey(err)) return; // already applied
    throw err;
  }
}

/** A finalized invoice or credit note: its amounts and dates enter the customer's ledger. */
export async function onInvoiceFinalized(deps: CustomerDeps, msg: Envelope<Finalized>) {
  const d = msg.data;
  await once(deps, msg, async (session) => {
    const _id = deps.ledger.idOf(msg.companyId, d.invoiceId);
    const current = await deps.ledger.model.findOne({ _id, companyId: msg.companyId }).session(session).lean<LedgerInvoiceDoc>();
    await deps.ledger.model.updateOne(
      { _id, companyId: msg.companyId },
      {
        $set: {
          customerId: d.customerId,
          invoiceId: d.invoiceId,
          finalized: true,
          number: d.number,
          typeCode: d.typeCode,
          invoiceDate: d.invoiceDate,
          dueDate: d.dueDate,
          currency: d.currency,
          totalGross: d.totalGross,
          status: nextLedgerStatus(current?.status, 'OPEN'),
          updatedAt: deps.now(),
        },
      },
      { upsert: true, session },
    );
  });
}

/** SENT, PAID or CANCELLED: moves the ledger status forward (never back) and records the payment date. */
export async function onInvoiceStatusChanged(deps: CustomerDeps, msg: Envelope<StatusChanged>) {
  const d = msg.data;
  await once(deps, msg, async (session) => {
    const _id = deps.ledger.idOf(msg.companyId, d.invoiceId);
    const current = await deps.ledger.model.findOne({ _id, companyId: msg.companyId }).session(session).lean<LedgerInvoiceDoc>();
    const status = nextLedgerStatus(current?.status, d.status);
    const set: Partial<LedgerInvoiceDoc> = { customerId: d.customerId, invoiceId: d.invoiceId, status, updatedAt: deps.now() };
    if (status === 'PAID' && d.status === 'PAID') set.paidDate = d.paidDate ?? msg.occurredAt.slice(0, 10);
    if (status === 'CANCELLED' && d.status === 'CANCELLED') set.cancelledDate = msg.occurredAt.slice(0, 10);
    // Until the finalized event arrives, keep what this event knows so the ledger can show it then.
    if (!current?.finalized) {
      if (d.number) set.number = d.number;
      if (d.totalGross) set.totalGross = d.totalGross;
    }
    await deps.ledger.model.updateOne({ _id, companyId: msg.companyId }, { $set: set, $setOnInsert: { finalized: false } }, { upsert: true, session });
  });
}
