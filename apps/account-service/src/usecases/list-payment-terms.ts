import type { CompanyId } from '@inv/contracts';
import { paymentTermsOf } from '../domain/payment-term-rules';
import type { CompanyDeps } from '../support/deps';
import { loadCompany } from './load-company';

export async function listPaymentTerms(deps: CompanyDeps, companyId: CompanyId) {
  const c = await loadCompany(deps, companyId);
  return { company: c, terms: paymentTermsOf(c) };
}
