/** Rules every draft use case shares: references that must exist, numbering, meta storage, the positions cap. */
import { MAX_INVOICE_POSITIONS, type CompanyId, type InvoiceMeta } from '@inv/contracts';
import { invalidData } from '@inv/service-kit';
import type { InvoiceDoc } from '../db/invoices';
import type { InvoiceDeps } from './deps';

export const MAX_POSITIONS = MAX_INVOICE_POSITIONS;

/** A string meta is stored as it is, an object as JSON text beside it (no client keys become field names). */
export function metaFields(meta: InvoiceMeta | undefined): Pick<InvoiceDoc, 'meta' | 'metaJson'> {
  if (meta === undefined) return {};
  return typeof meta === 'string' ? { meta, metaJson: null } : { meta: null, metaJson: JSON.stringify(meta) };
}

export async function assertCustomer(deps: InvoiceDeps, companyId: CompanyId, customerId: number) {
  const answer = await deps.peers.billingSnapshot(companyId, customerId);
  if (!answer.found) throw invalidData(`customer ${customerId} does not exist`, [{ path: 'customer_id', message: 'unknown customer' }]);
  return answer;
}

export async function assertTemplate(deps: InvoiceDeps, companyId: CompanyId, templateId: number | undefined) {
  if (templateId === undefined) return;
  const { exists } = await deps.bus.callRpc('document.template-exists.v1', companyId, { templateId });
  if (!exists)
    throw invalidData(`template ${templateId} does not exist`, [
      { path: 'ftl_template_id', message: 'unknown template; see GET /template/' },
    ]);
}

export function duplicateNumber(err: unknown): boolean {
  return (err as { code?: number }).code === 11000;
}
