import { peerDataKeys } from '@inv/service-kit';

/**
 * The events with which every change of a customer's billing data (billingSnapshotOf: the customer's fields and
 * addresses, and its VAT status) is written, in the same transaction: they also say whose cached billing data a
 * commit made stale (libs/service-kit peer-data.ts). A VIES verdict is stored without one (consumers/vat.checked.ts
 * deletes the token itself).
 */
const BILLING_DATA_EVENTS: ReadonlySet<string> = new Set(['customer.changed.v1', 'customer.vat-id-changed.v1']);

/** The change tokens to delete after a commit that wrote these messages. */
export function billingDataTokens(committed: ReadonlyArray<{ type: string; companyId: string; data: unknown }>): string[] {
  const keys = new Set<string>();
  for (const m of committed) {
    const customerId = (m.data as { customerId?: unknown } | null)?.customerId;
    if (BILLING_DATA_EVENTS.has(m.type) && typeof customerId === 'number') keys.add(peerDataKeys.buyer(m.companyId, customerId));
  }
  return [...keys];
}
