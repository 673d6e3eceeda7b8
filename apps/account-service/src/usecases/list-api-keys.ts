import type { CompanyId } from '@inv/contracts';
import type { ApiKeysRepo } from '../db/api-keys';

export async function listApiKeys(deps: { apiKeys: ApiKeysRepo }, companyId: CompanyId) {
  const keys = await deps.apiKeys.list(companyId);
  return keys.map((k) => ({
    id: String(k._id),
    name: k.name,
    prefix: k.prefix,
    created_at: k.createdAt.toISOString(),
    last_used_at: k.lastUsedAt?.toISOString() ?? null,
    revoked_at: k.revokedAt?.toISOString() ?? null,
    revoked_reason: k.revokedAt ? (k.revokedReason ?? 'revoked') : null,
    role: k.role ?? 'admin',
    mode: k.mode ?? 'live',
    active: !k.revokedAt,
  }));
}
