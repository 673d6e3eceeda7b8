import type { RpcRequestOf } from '@inv/runtime';
import type { CompaniesRepo } from '../db/companies';
import { sellerProfileOf } from '../usecases/seller-profile';

/** The seller data frozen onto an invoice at finalization; `found: false` for a company without a profile (RPC convention). */
export async function onSellerProfile(deps: { companies: CompaniesRepo }, msg: RpcRequestOf<'account.seller-profile.v1'>) {
  const company = await deps.companies.byId(msg.companyId);
  if (!company) return { found: false };
  return sellerProfileOf(company);
}
