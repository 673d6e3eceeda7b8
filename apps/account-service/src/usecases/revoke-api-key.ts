import type { CompanyId } from '@inv/contracts';
import { Types } from 'mongoose';
import type { Changes } from '@inv/outbox';
import { eventMessage } from '@inv/runtime';
import { AppError, notFound } from '@inv/service-kit';
import type { ApiKeysRepo } from '../db/api-keys';

/**
 * Revokes at once: the key stops verifying now, and `announce` tells every gateway replica to drop it
 * from its verified-key cache (awaited before answering, so the revocation is effective everywhere). Only an owner
 * (`callerRole`) may revoke a key with the owner role, as only an owner may create one.
 */
export async function revokeApiKey(
  deps: {
    apiKeys: ApiKeysRepo;
    commit: Changes['commit'];
    announceRevoked: (keyId: string, companyId: CompanyId) => Promise<void>;
  },
  companyId: CompanyId,
  id: string,
  callerRole?: string,
) {
  if (!Types.ObjectId.isValid(id)) throw notFound('API key');
  if (callerRole !== undefined && callerRole !== 'owner') {
    const key = await deps.apiKeys.byId(companyId, new Types.ObjectId(id));
    if (key?.role === 'owner') throw new AppError('forbidden', 'only an owner may revoke a key with the owner role', { code: 'FORBIDDEN' });
  }
  const revoked = await deps.commit(async (session, emit) => {
    const done = await deps.apiKeys.revoke(companyId, new Types.ObjectId(id), session);
    if (done) emit(eventMessage('api-key.revoked.v1', companyId, { keyId: id, reason: 'revoked' }));
    return done;
  });
  if (!revoked) throw notFound('API key');
  await deps.announceRevoked(String(revoked._id), companyId);
}
