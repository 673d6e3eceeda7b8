import { Types } from 'mongoose';
import { AppError, notFound, unauthenticated } from '@inv/service-kit';
import type { ApiKeysRepo } from '../db/api-keys';
import type { CompaniesRepo } from '../db/companies';
import { displayPrefix, generateApiKey, hashApiKey, isWellFormedApiKey, MAX_ACTIVE_KEYS } from '../domain/api-key';

/** Resolves an API key to its company; any failure is the same 401 (no hint which part was wrong). */
export async function verifyApiKey(deps: { apiKeys: ApiKeysRepo; companies: CompaniesRepo }, key: string | undefined) {
  if (!isWellFormedApiKey(key)) throw unauthenticated();
  const found = await deps.apiKeys.activeByHash(hashApiKey(key));
  if (!found) throw unauthenticated();
  const company = await deps.companies.byId(found.companyId);
  if (!company || company.plan !== 'pro') throw unauthenticated('API access requires an active Pro subscription');
  void deps.apiKeys.touch(found._id).catch(() => undefined); // last-usage display only; never fails a request
  return { companyId: found.companyId, keyId: String(found._id) };
}

export async function createApiKey(deps: { apiKeys: ApiKeysRepo; companies: CompaniesRepo }, companyId: string, name: string) {
  const company = await deps.companies.byId(companyId);
  if (!company || company.plan !== 'pro') throw new AppError('forbidden', 'API keys require an active Pro subscription', { code: 'PRO_PLAN_REQUIRED' });
  if ((await deps.apiKeys.countActive(companyId)) >= MAX_ACTIVE_KEYS) {
    throw new AppError('conflict', `a company can have at most ${MAX_ACTIVE_KEYS} active API keys; revoke one first`, { code: 'API_KEY_LIMIT_REACHED' });
  }
  const key = generateApiKey();
  const doc = await deps.apiKeys.model.create({ companyId, name, prefix: displayPrefix(key), hash: hashApiKey(key), createdAt: new Date() });
  return { id: String(doc._id), name, prefix: doc.prefix, created_at: doc.createdAt.toISOString(), key };
}

export async function listApiKeys(deps: { apiKeys: ApiKeysRepo }, companyId: string) {
  const keys = await deps.apiKeys.list(companyId);
  return keys.map((k) => ({
    id: String(k._id),
    name: k.name,
    prefix: k.prefix,
    created_at: k.createdAt.toISOString(),
    last_used_at: k.lastUsedAt?.toISOString() ?? null,
    revoked_at: k.revokedAt?.toISOString() ?? null,
    active: !k.revokedAt,
  }));
}

export async function revokeApiKey(deps: { apiKeys: ApiKeysRepo }, companyId: string, id: string) {
  if (!Types.ObjectId.isValid(id)) throw notFound('API key');
  const revoked = await deps.apiKeys.revoke(companyId, new Types.ObjectId(id));
  if (!revoked) throw notFound('API key');
}
