import { Webhook } from 'standardwebhooks';
import type { EndpointDoc } from '../db/endpoints';
import type { SecretBox } from '../domain/secrets';

/** Decrypted signers per sealed secret (a secret is opened once per process, not at every delivery). */
const cache = new Map<string, Webhook>();
const CACHE_LIMIT = 2000;

/**
 * The Standard Webhooks headers of one delivery: `webhook-signature` carries one `v1,<base64>` per secret that
 * signs now (the current one, and the previous one for 24 h after a rotation), separated by spaces.
 */
export function signedHeaders(box: SecretBox, endpoint: EndpointDoc, eventId: string, payload: string, now: Date): Record<string, string> {
  const signatures = endpoint.secrets
    .filter((s) => !s.expiresAt || s.expiresAt.getTime() > now.getTime())
    .map((s) => {
      let signer = cache.get(s.sealed);
      if (!signer) {
        if (cache.size >= CACHE_LIMIT) cache.clear();
        signer = new Webhook(box.open(s.sealed, endpoint._id));
        cache.set(s.sealed, signer);
      }
      return signer.sign(eventId, now, payload);
    });
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}
