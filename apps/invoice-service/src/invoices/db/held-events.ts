/**
 * Events announcing a change of one invoice, kept in the invoice by the write that makes the change (libs/outbox
 * pending.ts): the change and its audit event are stored together or not at all, in one single-document write.
 */
import { outboxEntries, type OutboxEntry, type OutboxMessage } from '@inv/outbox';
import type { CompanyId } from '@inv/contracts';
import { INVOICES_SOURCE, invoiceKey } from './invoices';
import type { InvoicesDeps } from '../deps';

/** The entries to write into the invoice with the change. */
export const heldEvents = (...messages: OutboxMessage[]): OutboxEntry[] => outboxEntries(messages);

/** After the write succeeded: the relay publishes them now and then pulls them out of the invoice. */
export function handOverHeld(deps: Pick<InvoicesDeps, 'handOver'>, companyId: CompanyId, invoiceId: number, entries: OutboxEntry[]): void {
  const heldBy = { source: INVOICES_SOURCE, id: invoiceKey(companyId, invoiceId) };
  if (entries.length) deps.handOver(entries.map((e) => ({ ...e, heldBy })));
}
