import type { EventOf } from '@inv/runtime';
import type { CustomerDeps } from '../support/deps';

/** Keeps the company's payment terms as account-service announced them (newest rev wins). */
export async function onPaymentTermsChanged(deps: CustomerDeps, msg: EventOf<'company.payment-terms-changed.v1'>) {
  await deps.paymentTerms.apply(msg.companyId, msg.data.rev, msg.data.terms);
}
