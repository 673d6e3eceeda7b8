import type { CompanyId } from '@inv/contracts';
import { notFound } from '@inv/service-kit';
import type { CustomerDoc } from '../domain/customer-doc';
import type { CustomerDeps } from '../support/deps';

export async function loadCustomer(deps: CustomerDeps, companyId: CompanyId, id: number): Promise<CustomerDoc> {
  const c = await deps.customers.get(companyId, id);
  if (!c) throw notFound(`customer ${id}`);
  return c;
}
