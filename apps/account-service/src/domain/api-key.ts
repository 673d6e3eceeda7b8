import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** `ak_live_` followed by 32 lowercase hexadecimal characters. */
export const API_KEY_PATTERN = /^ak_live_[0-9a-f]{32}$/;
export const MAX_ACTIVE_KEYS = 10;

export function generateApiKey(): string {
  return `ak_live_${randomBytes(16).toString('hex')}`;
}

/** Keys are stored only as SHA-256 hashes; the prefix shown to users is the first 12 characters. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function displayPrefix(key: string): string {
  return key.slice(0, 12);
}

export function isWellFormedApiKey(key: string | undefined): key is string {
  return typeof key === 'string' && API_KEY_PATTERN.test(key);
}

export function hashesEqual(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}
