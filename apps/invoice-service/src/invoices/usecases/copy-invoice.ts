import { eventMessage } from '@inv/runtime';
import { invoiceCounter } from '../../platform';
import type { InvoiceDoc, PositionDoc } from '../db/invoices';
import type { DocumentType } from '../domain/number-patterns';
import type { InvoicesDeps } from '../deps';
import { handOverHeld, heldEvents } from '../db/held-events';
import { insertNumberedDraft } from './insert-numbered-draft';

/**
 * A new draft with copies of `source`'s positions (fresh position ids) and the given overrides; announced like
 * any new draft (`invoice.changed.v1` created: the audit log, and the integrators' `invoice.created` webhook).
 */
export async function copyInvoice(
  deps: InvoicesDeps,
  source: InvoiceDoc,
  sequence: DocumentType,
  fields: Pick<InvoiceDoc, 'typeCode'> & Partial<Omit<InvoiceDoc, '_id' | 'id' | 'number'>>,
): Promise<number> {
  const newId = await deps.counters.next(invoiceCounter(source.companyId));
  const positions: PositionDoc[] = [];
  for (const p of source.positions) positions.push({ ...p, id: await deps.positionIds(source.companyId) });
  const now = deps.now();
  const pending = heldEvents(
    eventMessage('invoice.changed.v1', source.companyId, {
      invoiceId: newId,
      action: 'created',
      fields: ['customer_id', 'positions', ...(fields.precedingInvoiceId !== undefined ? ['preceding_invoice_id'] : [])],
    }),
  );
  const stored = await insertNumberedDraft(
    deps,
    {
      id: newId,
      companyId: source.companyId,
      customerId: source.customerId,
      customerName: source.customerName,
      grossCents: source.grossCents,
      status: 'DRAFT',
      format: source.format,
      templateId: source.templateId,
      taxTreatmentId: source.taxTreatmentId,
      buyerReference: source.buyerReference,
      positions,
      createdAt: now,
      updatedAt: now,
      ...fields,
      pendingMessages: pending,
    },
    { sequence },
  );
  // a retry of a request that stored its copy before (Idempotency-Key) answers that copy; this attempt's id stays unused
  if (stored.id !== newId) return stored.id;
  handOverHeld(deps, source.companyId, newId, pending);
  return newId;
}
