import { isTestCompany } from '@inv/contracts';
import type { AppBus, EventOf } from '@inv/runtime';
import type { ViesRequester } from '../domain/vies-result';
import { checkVatId, type CheckVatIdDeps } from '../vies/check-vat-id';

export interface VatIdChangedDeps {
  bus: AppBus;
  check: CheckVatIdDeps;
  requester?: ViesRequester;
  /** The check for a test twin's VAT IDs: the documented test numbers, never VIES (docs/test-mode.md). */
  testCheck?: CheckVatIdDeps;
}

/**
 * Checks the VAT ID at VIES (syntax, cache, retries of transient faults) and publishes the verdict with
 * its evidence. The answer's envelope id derives from the request's, so a redelivered request publishes
 * the same message id again and consumers can tell it is the same answer.
 * Exception to `commit`/`publish` (libs/outbox commit.ts): vat-service keeps no data of its own (the runtime opens its
 * database, nothing writes to it) and changes nothing here, and the verdict is published before the request is acknowledged (a crash before the
 * publish redelivers the request, which publishes the same id again), so an outbox would add a write and no safety.
 */
export async function onVatIdChanged(deps: VatIdChangedDeps, msg: EventOf<'customer.vat-id-changed.v1' | 'company.vat-id-changed.v1'>) {
  const testCheck = isTestCompany(msg.companyId) ? deps.testCheck : undefined;
  const outcome = testCheck
    ? await checkVatId({ vatId: msg.data.vatId }, testCheck)
    : await checkVatId({ vatId: msg.data.vatId, requester: deps.requester, forceRefresh: msg.data.forceRefresh }, deps.check);
  await deps.bus.publishEvent(
    'vat.checked.v1',
    msg.companyId,
    {
      customerId: 'customerId' in msg.data ? msg.data.customerId : undefined,
      // The customer stores the VAT ID normalised the same way; echo the request's own text if the syntax check rejected it.
      vatId: outcome.vatId || msg.data.vatId,
      status: outcome.status,
      checkedAt: outcome.checkedAt,
      requestDate: outcome.requestDate,
      name: outcome.name,
      address: outcome.address,
      consultationNumber: outcome.consultationNumber,
      // A syntax reject never reached VIES: its reason stands in for the fault so the customer sees why.
      fault: outcome.fault ?? outcome.reason,
    },
    { id: `vat-checked-${msg.id}` },
  );
}
