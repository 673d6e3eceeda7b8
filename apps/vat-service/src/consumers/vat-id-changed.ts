import type { Envelope } from '@inv/bus';
import type { messages } from '@inv/contracts';
import type { AppBus } from '@inv/runtime';
import type { z } from 'zod';
import type { ViesRequester } from '../domain/vies-result';
import { checkVatId, type CheckVatIdDeps } from '../vies/check-vat-id';

type VatIdChanged =
  z.output<(typeof messages.events)['customer.vat-id-changed.v1']> | z.output<(typeof messages.events)['company.vat-id-changed.v1']>;

export interface VatIdChangedDeps {
  bus: AppBus;
  check: CheckVatIdDeps;
  requester?: ViesRequester;
}

/**
 * Checks the VAT ID at VIES (syntax, cache, retries of transient faults) and publishes the verdict with
 * its evidence. The answer's envelope id derives from the request's, so a redelivered request publishes
 * the same message id again and consumers can tell it is the same answer.
 */
export async function onVatIdChanged(deps: VatIdChangedDeps, msg: Envelope<VatIdChanged>) {
  const outcome = await checkVatId({ vatId: msg.data.vatId, requester: deps.requester, forceRefresh: msg.data.forceRefresh }, deps.check);
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
