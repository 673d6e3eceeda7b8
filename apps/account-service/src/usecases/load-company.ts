import type { CompanyId } from '@inv/contracts';
import { notFound } from '@inv/service-kit';
import type { CompanyDoc } from '../domain/company-doc';
import type { CompanyDeps } from '../support/deps';

export async function loadCompany(deps: CompanyDeps, companyId: CompanyId): Promise<CompanyDoc> {
  const c = await deps.companies.byId(companyId);
  if (!c) throw notFound('company');
  return c;
}
