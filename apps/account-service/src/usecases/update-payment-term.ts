import type { CompanyId, PaymentTermUpdate } from '@inv/contracts';
import { notFound } from '@inv/service-kit';
import { paymentTermsOf } from '../domain/payment-term-rules';
import type { CompanyDeps } from '../support/deps';
import { loadCompany } from './load-company';
import { applyPaymentTermUpdate, savePaymentTerms } from '../support/payment-term-changes';

export async function updatePaymentTerm(deps: CompanyDeps, companyId: CompanyId, id: number, input: PaymentTermUpdate) {
  const c = await loadCompany(deps, companyId);
  const terms = paymentTermsOf(c);
  const i = terms.findIndex((t) => t.id === id);
  if (i < 0) throw notFound(`payment term ${id}`);
  const term = applyPaymentTermUpdate(terms[i]!, input);
  terms[i] = term;
  const after = await savePaymentTerms(deps, c, terms, { id, action: 'updated' });
  return { company: after, term };
}
