import { type CompanyId, MAX_PAYMENT_TERMS, type PaymentTermInput } from '@inv/contracts';
import { conflict } from '@inv/service-kit';
import { paymentTermsOf } from '../domain/payment-term-rules';
import type { CompanyDeps } from '../support/deps';
import { loadCompany } from './load-company';
import { applyPaymentTermUpdate, writePaymentTerms } from '../support/payment-term-changes';
import { retryOnConcurrentChange } from '../support/retry-concurrent-change';

/** At most MAX_PAYMENT_TERMS, checked on the list the conditional write replaces; a lost race checks again. */
export const createPaymentTerm = (deps: CompanyDeps, companyId: CompanyId, input: PaymentTermInput) =>
  retryOnConcurrentChange(() => createOnce(deps, companyId, input));

/**
 * The read, the check and the write in one commit whose result is the term stored with the company after: a retry
 * with the same Idempotency-Key whose first attempt committed answers that term (the commit is replayed, nothing is
 * checked or written again), never a next id nor a limit reached by its own first attempt.
 */
function createOnce(deps: CompanyDeps, companyId: CompanyId, input: PaymentTermInput) {
  return deps.commit(async (session, emit) => {
    const c = await loadCompany(deps, companyId);
    const terms = paymentTermsOf(c);
    if (terms.length >= MAX_PAYMENT_TERMS)
      throw conflict(`a company keeps at most ${MAX_PAYMENT_TERMS} payment terms`, 'PAYMENT_TERM_LIMIT_REACHED');
    const term = applyPaymentTermUpdate({ id: Math.max(0, ...terms.map((t) => t.id)) + 1, name: input.name, days: input.days }, input);
    const after = await writePaymentTerms(deps, c, [...terms, term], { id: term.id, action: 'created' }, session, emit);
    return { company: after, term };
  });
}
