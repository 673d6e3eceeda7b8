import type { CompanyId } from '@inv/contracts';
import type { AppBus } from '@inv/runtime';
import { peerDataKeys, type PeerDataCache } from '@inv/service-kit';

/**
 * The seller profile (account-service) and a customer's billing data (customer-service), as their owners answer
 * them by RPC, through copies kept while the owners' change tokens say they are current (libs/service-kit
 * peer-data.ts): a draft's creation and its finalization read the same customer, and every invoice of a company
 * the same seller, without asking again. Answers for an unknown company or customer are not kept.
 */
export function peerData(bus: Pick<AppBus, 'callRpc'>, cache: PeerDataCache) {
  return {
    sellerProfile: (companyId: CompanyId) =>
      cache.get(
        'seller',
        peerDataKeys.seller(companyId),
        () => bus.callRpc('account.seller-profile.v1', companyId, {}),
        (answer) => answer.found,
      ),
    billingSnapshot: (companyId: CompanyId, customerId: number) =>
      cache.get(
        'buyer',
        peerDataKeys.buyer(companyId, customerId),
        () => bus.callRpc('customer.billing-snapshot.v1', companyId, { customerId }),
        (answer) => answer.found,
      ),
  };
}
export type PeerData = ReturnType<typeof peerData>;
