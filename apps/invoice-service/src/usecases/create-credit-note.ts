import { conflict } from '@inv/service-kit';
import { copyInvoice } from './copy-invoice';
import type { InvoiceDeps } from './deps';
import { loadInvoice } from './load-invoice';

/** A credit note (type 381) for a finalized invoice: a new draft with the same positions, referencing it. */
export async function createCreditNote(deps: InvoiceDeps, companyId: string, id: number): Promise<number> {
  const inv = await loadInvoice(deps, companyId, id);
  if (inv.typeCode === '381') throw conflict('a credit note cannot be credited again', 'INVALID_CREDIT_NOTE');
  if (!['OPEN', 'SENT', 'PAID'].includes(inv.status))
    throw conflict(`invoice ${id} is ${inv.status}; only finalized invoices can be credited`, 'INVOICE_NOT_FINALIZED');
  return copyInvoice(deps, inv, 'credit_note', {
    typeCode: '381',
    benefitPeriodStart: inv.benefitPeriodStart,
    benefitPeriodEnd: inv.benefitPeriodEnd,
    precedingInvoiceId: inv._id,
  });
}
