import type { CompanyId } from '@inv/contracts';
import { notFound } from '@inv/service-kit';
import { paymentTermsOf } from '../domain/payment-term-rules';
import type { CompanyDeps } from '../support/deps';
import { loadCompany } from './load-company';

export async function getPaymentTerm(deps: CompanyDeps, companyId: CompanyId, id: number) {
  const c = await loadCompany(deps, companyId);
  const term = paymentTermsOf(c).find((t) => t.id === id);
  if (!term) throw notFound(`payment term ${id}`);
  return { company: c, term };
}
