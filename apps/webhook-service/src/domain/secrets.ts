import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** A Standard Webhooks signing secret: `whsec_` + base64 of 32 random bytes. */
export const newSigningSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * Encryption of the signing secrets at rest (AES-256-GCM, a fresh 12-byte IV each, the endpoint id as additional
 * data so a ciphertext copied to another endpoint does not decrypt). The secret must stay usable (it signs every
 * delivery), so it cannot be hashed like an API key; a database dump without WEBHOOK_SECRET_KEYS reveals nothing.
 * Stored as `<key id>.<base64 iv|tag|ciphertext>`: the key id lets a rotated key list decrypt older entries.
 */
export function secretBox(keys: Buffer[]) {
  if (!keys.length) throw new Error('secretBox needs a key');
  const idOf = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 8);
  const byId = new Map(keys.map((k) => [idOf(k), k]));
  const current = keys[0]!;
  return {
    seal(secret: string, aad: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current, iv).setAAD(Buffer.from(aad));
      const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return `${idOf(current)}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
    },
    open(sealed: string, aad: string): string {
      const [kid, data] = sealed.split('.');
      const key = byId.get(kid ?? '');
      if (!key || !data) throw new Error('signing secret sealed with an unknown key');
      const box = Buffer.from(data, 'base64');
      const decipher = createDecipheriv('aes-256-gcm', key, box.subarray(0, 12)).setAAD(Buffer.from(aad));
      decipher.setAuthTag(box.subarray(12, 28));
      return Buffer.concat([decipher.update(box.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}
export type SecretBox = ReturnType<typeof secretBox>;

/**
 * Keys from WEBHOOK_SECRET_KEYS, comma-separated (first encrypts, all decrypt): 32 bytes as 64 hex characters or
 * base64, or any other string of at least 32 characters, whose SHA-256 is the key (as IDENTITY_SIGNING_KEYS takes
 * `openssl rand -hex 32` output). Outside production a fixed development key when unset.
 */
export function secretKeysOf(spec: string | undefined, production: boolean): Buffer[] {
  if (!spec) {
    if (production) throw new Error('WEBHOOK_SECRET_KEYS is required in production');
    return [createHash('sha256').update('webhook-service development key (never in production)').digest()];
  }
  return spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      if (/^[0-9a-f]{64}$/i.test(s)) return Buffer.from(s, 'hex');
      const decoded = /^[A-Za-z0-9+/]{43}=$/.test(s) ? Buffer.from(s, 'base64') : undefined;
      if (decoded?.length === 32) return decoded;
      if (s.length < 32) throw new Error('each WEBHOOK_SECRET_KEYS entry must be 32 bytes (hex or base64) or at least 32 characters');
      return createHash('sha256').update(s, 'utf8').digest();
    });
}
