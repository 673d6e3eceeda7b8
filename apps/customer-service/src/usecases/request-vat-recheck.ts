import { isNonEuTaxId } from '@inv/contracts';
import type { CustomerDoc } from '../domain/customer-doc';
import { failsCheckDigits } from '../domain/customer';
import { vatCheckEvent } from '../support/customer-rules';
import type { CustomerDeps } from '../support/deps';

/** Asks vat-service to check the current VAT ID again (cache bypassed); the stored status stays until the answer arrives. */
export async function requestVatRecheck(deps: CustomerDeps, c: CustomerDoc): Promise<boolean> {
  if (c.contactType !== 'B2B' || !c.vatId || failsCheckDigits(c.vatId) || isNonEuTaxId(c.vatId)) return false;
  const vatId = c.vatId;
  await deps.commit(async (session, emit) => {
    await deps.customers.markVatRequested(c.companyId, c.id, vatId, deps.now(), session);
    emit(vatCheckEvent(c.companyId, c.id, vatId, true));
  });
  return true;
}
