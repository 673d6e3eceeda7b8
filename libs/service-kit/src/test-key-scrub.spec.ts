import { scrubSecrets } from './logger';

describe('log scrubbing of test keys (docs/test-mode.md)', () => {
  it('masks ak_test_ keys like live ones', () => {
    expect(scrubSecrets('key ak_test_0123456789abcdef0123456789abcdef and ak_live_0123456789abcdef0123456789abcdef')).toBe(
      'key ak_test_[REDACTED] and ak_live_[REDACTED]',
    );
  });
});
