import type { RpcRequestOf } from '@inv/runtime';
import type { CompaniesRepo } from '../db/companies';

/** The plan recorded for the company (quota-service's fallback when it missed the company's event). */
export async function onCompanyPlan(deps: { companies: CompaniesRepo }, msg: RpcRequestOf<'account.company-plan.v1'>) {
  const company = await deps.companies.byId(msg.companyId);
  return company ? { found: true, plan: company.plan } : { found: false };
}
