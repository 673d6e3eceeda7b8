import { Types } from 'mongoose';
import type { Role } from '@inv/contracts';
import type { Changes } from '@inv/outbox';
import { eventMessage } from '@inv/runtime';
import { AppError, notFound, unauthenticated } from '@inv/service-kit';
import { LAST_USED_RESOLUTION_MS, type ApiKeysRepo } from '../db/api-keys';
import type { CompaniesRepo } from '../db/companies';
import { displayPrefix, generateApiKey, hashApiKey, isWellFormedApiKey, MAX_ACTIVE_KEYS } from '../domain/api-key';

/** Resolves an API key to its company; any failure is the same 401 (no hint which part was wrong). */
export async function verifyApiKey(deps: { apiKeys: ApiKeysRepo; companies: CompaniesRepo }, key: string | undefined) {
  if (!isWellFormedApiKey(key)) throw unauthenticated();
  const found = await deps.apiKeys.activeByHash(hashApiKey(key));
  if (!found) throw unauthenticated();
  const company = await deps.companies.byId(found.companyId);
  if (!company || company.plan !== 'pro') throw unauthenticated('API access requires an active Pro subscription');
  // last-usage display only; never fails a request, written at most once a minute per key
  if (!found.lastUsedAt || Date.now() - found.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS)
    void deps.apiKeys.touch(found._id).catch(() => undefined);
  return { companyId: found.companyId, keyId: String(found._id), role: found.role ?? 'admin', plan: company.plan };
}

/**
 * A new key of the company (Pro plan only: 403 PLAN_REQUIRED) carrying the permissions of `role` (default
 * admin); only an owner (`callerRole`) may create an owner key.
 */
export async function createApiKey(
  deps: { apiKeys: ApiKeysRepo; companies: CompaniesRepo; commit: Changes['commit'] },
  companyId: string,
  name: string,
  role: Role = 'admin',
  callerRole?: string,
) {
  const company = await deps.companies.byId(companyId);
  if (!company || company.plan !== 'pro')
    throw new AppError('forbidden', 'API keys require an active Pro subscription; the company is on the Free plan', {
      code: 'PLAN_REQUIRED',
    });
  if (role === 'owner' && callerRole !== undefined && callerRole !== 'owner')
    throw new AppError('forbidden', 'only an owner may create a key with the owner role', { code: 'FORBIDDEN' });
  return insertApiKey(deps, companyId, name, role, generateApiKey());
}

/** Stores `key` (only its hash) as an active key of the company, within the 10-key limit. */
export async function insertApiKey(
  deps: { apiKeys: ApiKeysRepo; commit: Changes['commit'] },
  companyId: string,
  name: string,
  role: Role,
  key: string,
) {
  // Each active key holds one of MAX_ACTIVE_KEYS slots under a unique index, so concurrent creations
  // cannot overshoot the limit (a count-then-insert could). A lost race for a slot tries the next free one.
  for (let attempt = 0; attempt < MAX_ACTIVE_KEYS * 2; attempt++) {
    const used = new Set(await deps.apiKeys.usedSlots(companyId));
    const free = Array.from({ length: MAX_ACTIVE_KEYS }, (_, i) => i).filter((i) => !used.has(i));
    if (!free.length) break;
    const slot = free[Math.floor(Math.random() * free.length)];
    try {
      const doc = await deps.commit(async (session, emit) => {
        const inserted = await deps.apiKeys.insert(
          { companyId, name, role, prefix: displayPrefix(key), hash: hashApiKey(key), createdAt: new Date(), slot },
          session,
        );
        emit(eventMessage('api-key.created.v1', companyId, { keyId: String(inserted._id), name, prefix: inserted.prefix, role }));
        return inserted;
      });
      return { id: String(doc._id), name, role, prefix: doc.prefix, created_at: doc.createdAt.toISOString(), key };
    } catch (err) {
      if ((err as { code?: number }).code !== 11000) throw err;
    }
  }
  throw new AppError('conflict', `a company can have at most ${MAX_ACTIVE_KEYS} active API keys; revoke one first`, {
    code: 'API_KEY_LIMIT_REACHED',
  });
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
    revoked_reason: k.revokedAt ? (k.revokedReason ?? 'revoked') : null,
    role: k.role ?? 'admin',
    active: !k.revokedAt,
  }));
}

/**
 * Revokes at once: the key stops verifying now, and `announce` tells every gateway replica to drop it
 * from its verified-key cache (awaited before answering, so the revocation is effective everywhere).
 */
export async function revokeApiKey(
  deps: { apiKeys: ApiKeysRepo; commit: Changes['commit']; announceRevoked: (keyId: string, companyId: string) => Promise<void> },
  companyId: string,
  id: string,
) {
  if (!Types.ObjectId.isValid(id)) throw notFound('API key');
  const revoked = await deps.commit(async (session, emit) => {
    const done = await deps.apiKeys.revoke(companyId, new Types.ObjectId(id), session);
    if (done) emit(eventMessage('api-key.revoked.v1', companyId, { keyId: id, reason: 'revoked' }));
    return done;
  });
  if (!revoked) throw notFound('API key');
  await deps.announceRevoked(String(revoked._id), companyId);
}
