import type { CompanyId, Supplier, SupplierInput } from '@inv/contracts';
import { notFound } from '@inv/service-kit';
import { checkedIbans } from '../domain/supplier-rules';
import type { InboundDeps } from '../support/deps';
import { toSupplier } from '../http/presenters';

/** Replaces a register entry (PUT: fields left out are removed). */
export async function updateSupplier(deps: InboundDeps, companyId: CompanyId, id: number, input: SupplierInput): Promise<Supplier> {
  const ibans = checkedIbans(input);
  const doc = await deps.suppliers.replace(companyId, id, {
    name: input.name,
    vatId: input.vat_id,
    peppolId: input.peppol_id,
    ibans,
    updatedAt: deps.now(),
  });
  if (!doc) throw notFound('supplier');
  return toSupplier(doc);
}
