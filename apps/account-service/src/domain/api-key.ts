import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ApiKeyMode } from '@inv/contracts';

/** A live key: `ak_live_` followed by 32 lowercase hexadecimal characters. */
export const API_KEY_PATTERN = /^ak_live_[0-9a-f]{32}$/;
/** A test key (docs/test-mode.md): `ak_test_` followed by 32 lowercase hexadecimal characters. */
export const TEST_API_KEY_PATTERN = /^ak_test_[0-9a-f]{32}$/;
export const MAX_ACTIVE_KEYS = 10;

export function generateApiKey(mode: ApiKeyMode = 'live'): string {
  return `ak_${mode}_${randomBytes(16).toString('hex')}`;
}

/** The mode a key's string names (`ak_test_…`: test). */
export const modeOfApiKey = (key: string): ApiKeyMode => (key.startsWith('ak_test_') ? 'test' : 'live');

/** Keys are stored only as SHA-256 hashes; the prefix shown to users is the first 12 characters. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function displayPrefix(key: string): string {
  return key.slice(0, 12);
}

/** A well-formed live key. */
export function isWellFormedApiKey(key: string | undefined): key is string {
  return typeof key === 'string' && API_KEY_PATTERN.test(key);
}

/** A well-formed key of either mode (live or test). */
export function isWellFormedKeyOfAnyMode(key: string | undefined): key is string {
  return isWellFormedApiKey(key) || (typeof key === 'string' && TEST_API_KEY_PATTERN.test(key));
}

export function hashesEqual(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}
