import { unauthenticated } from '@inv/service-kit';
import { LAST_USED_RESOLUTION_MS, type ApiKeysRepo } from '../db/api-keys';
import type { CompaniesRepo } from '../db/companies';
import { hashApiKey, isWellFormedKeyOfAnyMode } from '../domain/api-key';

/**
 * Resolves an API key to its (live) company and mode; any failure is the same 401 (no hint which part was wrong).
 * The gateway turns a test key's company into the company's test twin (docs/test-mode.md).
 */
export async function verifyApiKey(deps: { apiKeys: ApiKeysRepo; companies: CompaniesRepo }, key: string | undefined) {
  if (!isWellFormedKeyOfAnyMode(key)) throw unauthenticated();
  const found = await deps.apiKeys.activeByHashAcrossCompanies(hashApiKey(key));
  if (!found) throw unauthenticated();
  const company = await deps.companies.byId(found.companyId);
  if (!company || company.plan !== 'pro') throw unauthenticated('API access requires an active Pro subscription');
  // last-usage display only; never fails a request, written at most once a minute per key
  if (!found.lastUsedAt || Date.now() - found.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS)
    void deps.apiKeys.touchAcrossCompanies(found._id).catch(() => undefined);
  return {
    companyId: found.companyId,
    keyId: String(found._id),
    role: found.role ?? 'admin',
    plan: company.plan,
    mode: found.mode ?? 'live',
  };
}
