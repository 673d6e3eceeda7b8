import type { ApiKeyMode, CompanyId, Role } from '@inv/contracts';
import type { Changes } from '@inv/outbox';
import { eventMessage } from '@inv/runtime';
import { AppError } from '@inv/service-kit';
import type { ApiKeysRepo } from '../db/api-keys';
import { displayPrefix, hashApiKey, MAX_ACTIVE_KEYS, modeOfApiKey } from '../domain/api-key';

/** Stores `key` (only its hash) as an active key of the company, within the 10-key limit (test keys count too); its mode is the key's (`ak_test_…`). */
export async function insertApiKey(
  deps: { apiKeys: ApiKeysRepo; commit: Changes['commit'] },
  companyId: CompanyId,
  name: string,
  role: Role,
  key: string,
) {
  // Each active key holds one of MAX_ACTIVE_KEYS slots under a unique index, so concurrent creations
  // cannot overshoot the limit (a count-then-insert could). A lost race for a slot tries the next free one.
  // The slots are read inside the commit and the answer is its result (the key's id, prefix and time as stored, and
  // the key): a retry with the same Idempotency-Key whose first attempt committed gets that key, its commit replayed
  // (nothing read or written again, so its own slot is no reason for 409). The journal keeps the result with the key's
  // secret redacted (libs/outbox request-journal.ts): such a retry names the key and shows `ak_live_****…`, never
  // this attempt's key, which was never stored.
  for (let attempt = 0; attempt < MAX_ACTIVE_KEYS * 2; attempt++) {
    try {
      const created = await deps.commit(async (session, emit) => {
        const used = new Set(await deps.apiKeys.usedSlots(companyId, session));
        const free = Array.from({ length: MAX_ACTIVE_KEYS }, (_, i) => i).filter((i) => !used.has(i));
        if (!free.length) throw limitReached();
        const slot = free[Math.floor(Math.random() * free.length)];
        const mode: ApiKeyMode = modeOfApiKey(key);
        const inserted = await deps.apiKeys.insert(
          {
            companyId,
            name,
            role,
            prefix: displayPrefix(key),
            hash: hashApiKey(key),
            createdAt: new Date(),
            slot,
            ...(mode === 'test' ? { mode } : {}),
          },
          session,
        );
        emit(eventMessage('api-key.created.v1', companyId, { keyId: String(inserted._id), name, prefix: inserted.prefix, role }));
        return { id: String(inserted._id), name, role, mode, prefix: inserted.prefix, created_at: inserted.createdAt.toISOString(), key };
      });
      return created;
    } catch (err) {
      if ((err as { code?: number }).code !== 11000) throw err;
    }
  }
  throw limitReached();
}

const limitReached = () =>
  new AppError('conflict', `a company can have at most ${MAX_ACTIVE_KEYS} active API keys; revoke one first`, {
    code: 'API_KEY_LIMIT_REACHED',
  });
