import type { Envelope } from '@inv/bus';
import type { messages } from '@inv/contracts';
import type { z } from 'zod';
import type { CustomerDeps } from '../usecases/deps';

type Changed = z.output<(typeof messages.events)['company.payment-terms-changed.v1']>;

/** Keeps the company's payment terms as account-service announced them (newest rev wins). */
export async function onPaymentTermsChanged(deps: CustomerDeps, msg: Envelope<Changed>) {
  await deps.paymentTerms.apply(msg.companyId, msg.data.rev, msg.data.terms);
}
