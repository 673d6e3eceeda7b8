import type { EventOf } from '@inv/runtime';
import type { LedgerInvoiceDoc } from '../db/ledger';
import { nextLedgerStatus, withIssuedReminder } from '../domain/ledger-rules';
import type { CustomerDeps } from '../support/deps';

/**
 * A reminder issued on an invoice: its fee, flat fee and interest enter the invoice's ledger entry (at most once per
 * envelope id, and idempotent by reminder id, so a re-publish under a new envelope changes nothing either). An event
 * ahead of the finalized one makes a placeholder entry (shown once the finalized event fills it).
 */
export async function onReminderIssued(deps: CustomerDeps, msg: EventOf<'invoice.reminder-issued.v1'>) {
  const d = msg.data;
  await deps.commitOnce(msg, async (session) => {
    const current = await deps.ledger.get(msg.companyId, d.invoiceId, session);
    const reminder = {
      reminderId: d.reminderId,
      level: d.level,
      date: d.date,
      fee: d.fee,
      interest: d.interest,
      ...(d.flatFee ? { flatFee: d.flatFee } : {}),
    };
    const reminders = withIssuedReminder(current?.reminders ?? [], reminder);
    const set: Partial<LedgerInvoiceDoc> = { customerId: d.customerId, invoiceId: d.invoiceId, reminders, updatedAt: deps.now() };
    if (!current?.finalized && d.number) set.number = d.number;
    await deps.ledger.upsert(
      msg.companyId,
      d.invoiceId,
      set,
      current ? {} : { finalized: false, status: nextLedgerStatus(undefined, 'OPEN') },
      session,
    );
  });
}
