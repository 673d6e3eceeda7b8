import type { RpcRequestOf } from '@inv/runtime';
import type { CompaniesRepo } from '../db/companies';
import { paymentTermsOf } from '../domain/payment-term-rules';

/** The company's payment terms now (customer-service's fallback when its copy does not know a term yet). */
export async function onPaymentTerms(deps: { companies: CompaniesRepo }, msg: RpcRequestOf<'account.payment-terms.v1'>) {
  const company = await deps.companies.byId(msg.companyId);
  if (!company) return { found: false };
  const terms = paymentTermsOf(company).map((t) => ({ id: t.id, name: t.name, days: t.days }));
  return { found: true, rev: company.paymentTermsRev ?? 0, terms };
}
