import type { EventOf } from '@inv/runtime';
import type { CompaniesRepo } from '../db/companies';

/**
 * A VIES verdict on the company's own VAT ID (answers about customers carry a customerId and are not ours).
 * Stored only while the company still has that VAT ID and if not older than the stored one: idempotent.
 */
export async function onVatChecked(deps: { companies: CompaniesRepo }, msg: EventOf<'vat.checked.v1'>) {
  const d = msg.data;
  if (d.customerId !== undefined) return;
  await deps.companies.setVatCheck(msg.companyId, {
    vatId: d.vatId,
    status: d.status,
    checkedAt: d.checkedAt,
    name: d.name,
    consultationNumber: d.consultationNumber,
    fault: d.fault,
  });
}
