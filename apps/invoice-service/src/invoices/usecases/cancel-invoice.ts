import type { CompanyId } from '@inv/contracts';
import { eventMessage } from '@inv/runtime';
import { conflict } from '@inv/service-kit';
import type { InvoicesDeps } from '../deps';
import { handOverHeld, heldEvents } from '../db/held-events';
import { loadInvoice } from './load-invoice';

export async function cancelInvoice(deps: InvoicesDeps, companyId: CompanyId, id: number) {
  const inv = await loadInvoice(deps, companyId, id);
  if (inv.status === 'CANCELLED') return; // irreversible and idempotent
  if (inv.status !== 'DRAFT' || inv.finalizingJobId) {
    throw conflict(`invoice ${id} is ${inv.status}; a finalized invoice is corrected with a credit note`, 'INVOICE_ALREADY_FINALIZED');
  }
  // for the audit log, kept in the draft by the same write (stored with the change or not at all)
  const pending = heldEvents(eventMessage('invoice.changed.v1', companyId, { invoiceId: id, action: 'cancelled', fields: ['status'] }));
  if (!(await deps.invoices.cancelDraft(companyId, id, deps.now(), pending)))
    throw conflict(`invoice ${id} changed meanwhile`, 'CONCURRENT_MODIFICATION');
  deps.drafts.forget(companyId, id);
  handOverHeld(deps, companyId, id, pending);
}
