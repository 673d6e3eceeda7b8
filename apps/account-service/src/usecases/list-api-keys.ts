import type { CompanyId } from '@inv/contracts';
import type { ApiKeysRepo } from '../db/api-keys';
import { presentApiKey } from '../http/presenters';

export async function listApiKeys(deps: { apiKeys: ApiKeysRepo }, companyId: CompanyId) {
  const keys = await deps.apiKeys.list(companyId);
  return keys.map(presentApiKey);
}
