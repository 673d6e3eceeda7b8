import type { Envelope } from '@inv/bus';
import { notFound } from '@inv/service-kit';
import type { CompaniesRepo } from '../db/companies';
import { sellerProfileOf } from '../usecases/seller-profile';

/** The seller data frozen onto an invoice at finalization. */
export async function onSellerProfile(deps: { companies: CompaniesRepo }, msg: Envelope<Record<string, never>>) {
  const company = await deps.companies.byId(msg.companyId);
  if (!company) throw notFound('company');
  return sellerProfileOf(company);
}
