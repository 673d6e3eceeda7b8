import { asCompanyId, testTwinOf } from '@inv/contracts';
import { peerDataKeys } from '@inv/service-kit';

/**
 * The events with which every change of a company's seller profile (sellerProfileOf: profile fields, bank accounts,
 * payment terms, logo) is written. Each write of those fields emits one of them for the audit log, in the same
 * transaction, so they also say whose cached seller profile a commit made stale (libs/service-kit peer-data.ts).
 */
const SELLER_PROFILE_EVENTS: ReadonlySet<string> = new Set(['company.profile-changed.v1', 'company.payment-terms-changed.v1']);

/** The change tokens to delete after a commit that wrote these messages. */
export function sellerProfileTokens(committed: ReadonlyArray<{ type: string; companyId: string }>): string[] {
  const companies = new Set(committed.filter((m) => SELLER_PROFILE_EVENTS.has(m.type)).map((m) => m.companyId));
  return [...companies].map(peerDataKeys.seller);
}

/**
 * The same tokens of the companies' test twins: a twin's invoices are issued with the live seller profile too
 * (docs/test-mode.md), so its copy goes stale with the live company's.
 */
export function testTwinSellerProfileTokens(committed: ReadonlyArray<{ type: string; companyId: string }>): string[] {
  const companies = new Set(committed.filter((m) => SELLER_PROFILE_EVENTS.has(m.type)).map((m) => m.companyId));
  return [...companies].map((c) => peerDataKeys.seller(testTwinOf(asCompanyId(c))));
}
