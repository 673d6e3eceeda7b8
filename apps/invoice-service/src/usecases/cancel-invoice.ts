import { eventMessage } from '@inv/runtime';
import { conflict } from '@inv/service-kit';
import type { InvoiceDeps } from './deps';
import { loadInvoice } from './load-invoice';

export async function cancelInvoice(deps: InvoiceDeps, companyId: string, id: number) {
  const inv = await loadInvoice(deps, companyId, id);
  if (inv.status === 'CANCELLED') return; // irreversible and idempotent
  if (inv.status !== 'DRAFT' || inv.finalizingJobId) {
    throw conflict(`invoice ${id} is ${inv.status}; a finalized invoice is corrected with a credit note`, 'INVOICE_ALREADY_FINALIZED');
  }
  if (!(await deps.invoices.cancelDraft(companyId, id, deps.now())))
    throw conflict(`invoice ${id} changed meanwhile`, 'CONCURRENT_MODIFICATION');
  deps.drafts.forget(companyId, id);
  await deps.publish(eventMessage('invoice.changed.v1', companyId, { invoiceId: id, action: 'cancelled', fields: ['status'] }));
}
