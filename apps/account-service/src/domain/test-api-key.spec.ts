import { generateApiKey, isWellFormedApiKey, isWellFormedKeyOfAnyMode, modeOfApiKey } from './api-key';

describe('test keys', () => {
  it('are ak_test_ keys, well-formed in either mode but not as live keys', () => {
    const key = generateApiKey('test');
    expect(key).toMatch(/^ak_test_[0-9a-f]{32}$/);
    expect(modeOfApiKey(key)).toBe('test');
    expect(isWellFormedKeyOfAnyMode(key)).toBe(true);
    expect(isWellFormedApiKey(key)).toBe(false);
    expect(modeOfApiKey(generateApiKey())).toBe('live');
    expect(isWellFormedKeyOfAnyMode(generateApiKey())).toBe(true);
    for (const k of [undefined, '', 'ak_test_', 'ak_test_' + 'A'.repeat(32), 'ak_prod_' + 'a'.repeat(32)])
      expect(isWellFormedKeyOfAnyMode(k)).toBe(false);
  });
});
