import type { CompanyId } from '@inv/contracts';
import { RpcTimeoutError } from '@inv/bus';
import { AppError, notFound } from '@inv/service-kit';
import { defaultPaymentTerm, paymentTermsOf } from '../domain/payment-term-rules';
import { loadCompany } from './load-company';
import { savePaymentTerms, type PaymentTermDeps } from '../support/payment-term-changes';

/** DELETE: refused while customers use the term (409 with their count) or while it is the company's default. */
export async function deletePaymentTerm(deps: PaymentTermDeps, companyId: CompanyId, id: number) {
  const c = await loadCompany(deps, companyId);
  const terms = paymentTermsOf(c);
  if (!terms.some((t) => t.id === id)) throw notFound(`payment term ${id}`);
  if (defaultPaymentTerm(c)?.id === id) {
    throw new AppError('conflict', `payment term ${id} is the company's default; choose another default_payment_term_id first`, {
      code: 'PAYMENT_TERM_IN_USE',
      extra: { customers: 0, is_default: true },
    });
  }
  let customers: number;
  try {
    ({ customers } = await deps.bus.callRpc('customer.payment-term-usage.v1', companyId, { paymentTermId: id }));
  } catch (err) {
    if (err instanceof RpcTimeoutError)
      throw new AppError('unavailable', 'cannot check which customers use the payment term right now; retry later', {
        code: 'SERVICE_UNAVAILABLE',
      });
    throw err;
  }
  if (customers > 0) {
    throw new AppError(
      'conflict',
      `payment term ${id} is used by ${customers} customer${customers === 1 ? '' : 's'}; give them another payment_term_id first`,
      { code: 'PAYMENT_TERM_IN_USE', extra: { customers } },
    );
  }
  await savePaymentTerms(
    deps,
    c,
    terms.filter((t) => t.id !== id),
    { id, action: 'deleted' },
  );
}
