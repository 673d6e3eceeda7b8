import { displayPrefix, generateApiKey, hashApiKey, isWellFormedApiKey } from './api-key';

describe('api keys', () => {
  it('generates well-formed, distinct keys', () => {
    const a = generateApiKey();
    expect(isWellFormedApiKey(a)).toBe(true);
    expect(generateApiKey()).not.toBe(a);
  });
  it('rejects malformed keys', () => {
    for (const k of [
      undefined,
      '',
      'ak_live_',
      'ak_test_' + 'a'.repeat(32),
      'ak_live_' + 'A'.repeat(32),
      'ak_live_' + 'a'.repeat(31),
      'ak_live_' + 'g'.repeat(32),
    ]) {
      expect(isWellFormedApiKey(k)).toBe(false);
    }
  });
  it('hashes with sha-256 hex and shows a short prefix', () => {
    expect(hashApiKey('ak_live_' + '0'.repeat(32))).toMatch(/^[0-9a-f]{64}$/);
    expect(displayPrefix('ak_live_0123456789abcdef0123456789abcdef')).toBe('ak_live_0123');
  });
});
