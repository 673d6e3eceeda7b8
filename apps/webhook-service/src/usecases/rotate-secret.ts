import type { CompanyId } from '@inv/contracts';
import { eventMessage } from '@inv/runtime';
import { newSigningSecret } from '../domain/secrets';
import type { WebhookDeps } from '../support/deps';
import { loadEndpoint } from './load-endpoint';

/** How long the previous secret keeps signing beside the new one (receivers switch over without a gap). */
export const SECRET_OVERLAP_MS = 24 * 3600 * 1000;

/**
 * A new signing secret, answered once. The previous one keeps signing for 24 h (deliveries carry both
 * signatures); one rotated earlier and still overlapping stops now. The answer is the commit's result: a retry with
 * the same Idempotency-Key whose first attempt committed rotates nothing again and answers the secret redacted
 * (`whsec_****…`, the journal never keeps it), never a secret that was not stored.
 */
export async function rotateSecret(deps: WebhookDeps, companyId: CompanyId, id: string) {
  const secret = newSigningSecret();
  const now = deps.now();
  const expiresAt = new Date(now.getTime() + SECRET_OVERLAP_MS);
  const rotated = await deps.commit(async (session, emit) => {
    const endpoint = await loadEndpoint(deps, companyId, id, session);
    const current = endpoint.secrets.find((s) => !s.expiresAt);
    const secrets = [{ sealed: deps.box.seal(secret, id), createdAt: now }, ...(current ? [{ ...current, expiresAt }] : [])];
    await deps.endpoints.update(companyId, id, { secrets, secretRotatedAt: now, updatedAt: now }, [], session);
    emit(eventMessage('webhook-endpoint.changed.v1', companyId, { endpointId: id, action: 'secret_rotated', fields: ['secret'] }));
    return { secret, previous_secret_expires_at: expiresAt.toISOString() };
  });
  deps.endpoints.forget(companyId);
  return rotated;
}
