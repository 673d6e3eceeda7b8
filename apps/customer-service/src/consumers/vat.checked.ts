import type { EventOf } from '@inv/runtime';
import { peerDataKeys } from '@inv/service-kit';
import type { CustomerDeps } from '../support/deps';

/**
 * Stores a VIES verdict with its evidence on the customer, but only while the customer still has that
 * VAT ID (an answer for a replaced VAT ID is stale) and only if it is not older than the stored one
 * (answers can arrive out of order after retries). Idempotent by state: the same answer twice writes
 * the same values. A stored verdict changes the customer's VAT status in its billing data: the cached copies go.
 */
export async function onVatChecked(deps: CustomerDeps, msg: EventOf<'vat.checked.v1'>) {
  const d = msg.data;
  if (d.customerId === undefined) return; // a check someone else asked for
  const stored = await deps.customers.storeVatVerdict(msg.companyId, d.customerId, {
    status: d.status,
    vatId: d.vatId,
    checkedAt: d.checkedAt,
    requestDate: d.requestDate,
    name: d.name,
    address: d.address,
    consultationNumber: d.consultationNumber,
    fault: d.fault,
  });
  if (stored.matchedCount > 0) await deps.invalidateBillingData([peerDataKeys.buyer(msg.companyId, d.customerId)]);
}
