import type { CompanyId, CustomerListQuery } from '@inv/contracts';
import type { CustomerDeps } from '../support/deps';

export function listCustomers(deps: CustomerDeps, companyId: CompanyId, q: CustomerListQuery) {
  return deps.customers.list(companyId, { contactType: q.contact_type, isActive: q.is_active, email: q.email, q: q.q }, q);
}
