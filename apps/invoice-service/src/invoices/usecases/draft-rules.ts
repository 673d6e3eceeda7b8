/** Rules every draft use case shares: references that must exist, numbering, meta storage, the positions cap. */
import { MAX_INVOICE_POSITIONS, type CompanyId, type InvoiceCreate, type InvoiceMeta } from '@inv/contracts';
import { invalidData } from '@inv/service-kit';
import type { InvoiceDoc } from '../db/invoices';
import type { InvoicesDeps } from '../deps';

export const MAX_POSITIONS = MAX_INVOICE_POSITIONS;

/** A string meta is stored as it is, an object as JSON text beside it (no client keys become field names). */
export function metaFields(meta: InvoiceMeta | undefined): Pick<InvoiceDoc, 'meta' | 'metaJson'> {
  if (meta === undefined) return {};
  return typeof meta === 'string' ? { meta, metaJson: null } : { meta: null, metaJson: JSON.stringify(meta) };
}

type BillingSnapshot = Awaited<ReturnType<InvoicesDeps['peers']['billingSnapshot']>>;

/**
 * What a new draft takes from the request of POST /invoice/ and the customer's snapshot (its template and buyer
 * reference are the defaults): one mapping for creating a draft and for checking one not created (POST /invoice/validate).
 */
export function newDraftFields(input: InvoiceCreate, customer: BillingSnapshot, now: Date) {
  return {
    customerId: input.customer_id,
    customerName: customer.buyer?.name,
    status: 'DRAFT',
    typeCode: '380',
    format: input.invoice_format ?? 'ZUGFERD',
    templateId: input.ftl_template_id ?? customer.defaultTemplateId,
    taxTreatmentId: input.tax_treatment_id,
    benefitPeriodStart: input.benefit_period_start,
    benefitPeriodEnd: input.benefit_period_end,
    buyerReference: input.buyer_reference ?? customer.buyerReference,
    ...metaFields(input.meta),
    note: input.note,
    attachmentsUploaded: false,
    createdAt: now,
    updatedAt: now,
  } satisfies Partial<InvoiceDoc>;
}

export async function assertCustomer(deps: InvoicesDeps, companyId: CompanyId, customerId: number) {
  const answer = await deps.peers.billingSnapshot(companyId, customerId);
  if (!answer.found) throw invalidData(`customer ${customerId} does not exist`, [{ path: 'customer_id', message: 'unknown customer' }]);
  return answer;
}

export async function assertTemplate(deps: InvoicesDeps, companyId: CompanyId, templateId: number | undefined) {
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
