import { Types } from 'mongoose';
import type { Changes } from '@inv/outbox';
import { eventMessage } from '@inv/runtime';
import { notFound } from '@inv/service-kit';
import type { ApiKeysRepo } from '../db/api-keys';

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
