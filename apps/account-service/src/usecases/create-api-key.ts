import type { ApiKeyMode, CompanyId, Role } from '@inv/contracts';
import type { Changes } from '@inv/outbox';
import { AppError } from '@inv/service-kit';
import type { ApiKeysRepo } from '../db/api-keys';
import type { CompaniesRepo } from '../db/companies';
import { generateApiKey } from '../domain/api-key';
import { insertApiKey } from './insert-api-key';

/**
 * A new key of the company (Pro plan only: 403 PLAN_REQUIRED) carrying the permissions of `role` (default
 * admin); only an owner (`callerRole`) may create an owner key. `mode` test makes an `ak_test_…` key, which works
 * on the company's test twin (docs/test-mode.md).
 */
export async function createApiKey(
  deps: { apiKeys: ApiKeysRepo; companies: CompaniesRepo; commit: Changes['commit'] },
  companyId: CompanyId,
  name: string,
  role: Role = 'admin',
  callerRole?: string,
  mode: ApiKeyMode = 'live',
) {
  const company = await deps.companies.byId(companyId);
  if (!company || company.plan !== 'pro')
    throw new AppError('forbidden', 'API keys require an active Pro subscription; the company is on the Free plan', {
      code: 'PLAN_REQUIRED',
    });
  if (role === 'owner' && callerRole !== undefined && callerRole !== 'owner')
    throw new AppError('forbidden', 'only an owner may create a key with the owner role', { code: 'FORBIDDEN' });
  return insertApiKey(deps, companyId, name, role, generateApiKey(mode));
}
