import type { CompanyId } from '@inv/contracts';
import { copyInvoice } from './copy-invoice';
import type { InvoicesDeps } from '../deps';
import { loadInvoice } from './load-invoice';

export async function duplicateInvoice(deps: InvoicesDeps, companyId: CompanyId, id: number): Promise<number> {
  const inv = await loadInvoice(deps, companyId, id);
  return copyInvoice(deps, inv, 'invoice', { typeCode: '380', meta: inv.meta, metaJson: inv.metaJson, note: inv.note });
}
