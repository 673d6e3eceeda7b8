import { type CompanyId, MAX_PAYMENT_TERMS, type PaymentTermInput } from '@inv/contracts';
import { conflict } from '@inv/service-kit';
import { paymentTermsOf } from '../domain/payment-term-rules';
import type { CompanyDeps } from '../support/deps';
import { loadCompany } from './load-company';
import { applyPaymentTermUpdate, savePaymentTerms } from '../support/payment-term-changes';
import { retryOnConcurrentChange } from '../support/retry-concurrent-change';

/** At most MAX_PAYMENT_TERMS, checked on the list the conditional write replaces; a lost race checks again. */
export const createPaymentTerm = (deps: CompanyDeps, companyId: CompanyId, input: PaymentTermInput) =>
  retryOnConcurrentChange(() => createOnce(deps, companyId, input));

async function createOnce(deps: CompanyDeps, companyId: CompanyId, input: PaymentTermInput) {
  const c = await loadCompany(deps, companyId);
  const terms = paymentTermsOf(c);
  if (terms.length >= MAX_PAYMENT_TERMS)
    throw conflict(`a company keeps at most ${MAX_PAYMENT_TERMS} payment terms`, 'PAYMENT_TERM_LIMIT_REACHED');
  const term = applyPaymentTermUpdate({ id: Math.max(0, ...terms.map((t) => t.id)) + 1, name: input.name, days: input.days }, input);
  const after = await savePaymentTerms(deps, c, [...terms, term], { id: term.id, action: 'created' });
  return { company: after, term };
}
