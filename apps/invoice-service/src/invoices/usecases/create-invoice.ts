import type { CompanyId, InvoiceCreate } from '@inv/contracts';
import { eventMessage, givenFields } from '@inv/runtime';
import { invoiceCounter } from '../../platform';
import { invoiceKey, type InvoiceDoc } from '../db/invoices';
import type { InvoicesDeps } from '../deps';
import { assertCustomer, assertTemplate, newDraftFields } from './draft-rules';
import { handOverHeld, heldEvents } from '../db/held-events';
import { insertNumberedDraft } from './insert-numbered-draft';

export async function createInvoice(deps: InvoicesDeps, companyId: CompanyId, input: InvoiceCreate): Promise<number> {
  const customer = await assertCustomer(deps, companyId, input.customer_id);
  await assertTemplate(deps, companyId, input.ftl_template_id);
  const id = await deps.counters.next(invoiceCounter(companyId));
  const now = deps.now();
  // for the audit log, kept in the draft by its insert (one write: the draft and its event exist together or not at all)
  const pending = heldEvents(
    eventMessage('invoice.changed.v1', companyId, {
      invoiceId: id,
      action: 'created',
      fields: givenFields(input),
    }),
  );
  const draft: Omit<InvoiceDoc, '_id' | 'number'> = {
    id,
    companyId,
    ...newDraftFields(input, customer, now),
    grossCents: 0,
    positions: [],
    pendingMessages: pending,
  };
  const inserted = await insertNumberedDraft(deps, draft, { explicit: input.invoice_number, sequence: 'invoice' });
  // a retry of a request that stored its draft before (Idempotency-Key) answers that draft; this attempt's id stays unused
  if (inserted.id !== id) return inserted.id;
  const { number } = inserted;
  handOverHeld(deps, companyId, id, pending);
  // the draft as stored (a read gives no key for an unset field), for the positions that usually follow
  const { pendingMessages: _pending, ...kept } = draft;
  const stored = Object.fromEntries(Object.entries({ _id: invoiceKey(companyId, id), ...kept, number }).filter(([, v]) => v !== undefined));
  deps.drafts.remember(stored as unknown as InvoiceDoc);
  return id;
}
