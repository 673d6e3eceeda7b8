import { scrubSecrets } from './logger';
import { redactSecrets } from './idempotent-request';

describe('log scrubbing of test keys (docs/test-mode.md)', () => {
  it('masks ak_test_ keys like live ones', () => {
    expect(scrubSecrets('key ak_test_0123456789abcdef0123456789abcdef and ak_live_0123456789abcdef0123456789abcdef')).toBe(
      'key ak_test_[REDACTED] and ak_live_[REDACTED]',
    );
  });
});

describe("members' session secrets and access tokens", () => {
  const session = `ms_${'ab'.repeat(32)}`;
  const access = `mt_${'cd'.repeat(32)}`;
  it('are masked in a log line', () => {
    expect(scrubSecrets(`GET /x?t=${access} body {"session_token":"${session}"}`)).toBe(
      'GET /x?t=mt_[REDACTED] body {"session_token":"ms_[REDACTED]"}',
    );
  });
  it('are never kept by an idempotency journal or replay', () => {
    const masked = redactSecrets(JSON.stringify({ session_token: session, access_token: access }));
    expect(masked).not.toContain(session.slice(3));
    expect(masked).not.toContain(access.slice(3));
    expect(masked).toBe(JSON.stringify({ session_token: `ms_${'*'.repeat(32)}`, access_token: `mt_${'*'.repeat(32)}` }));
  });
});
