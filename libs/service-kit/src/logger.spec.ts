import { createLogger } from './logger';

describe('logger redaction', () => {
  it('never writes credentials or key material', () => {
    const lines: string[] = [];
    const logger = createLogger('t', 'info', { write: (s: string) => void lines.push(s) });
    const key = 'ak_live_0123456789abcdef0123456789abcdef';
    logger.info(
      {
        req: {
          url: `/x?api_key=${key}`,
          headers: {
            'x-api-key': key,
            authorization: 'Bearer s3cret',
            cookie: 'sid=s3cret',
            'x-identity-token': 'eyJ.s3cret',
            'idempotency-key': 'k-1',
          },
        },
        res: { headers: { 'set-cookie': 'sid=s3cret' } },
      },
      'request',
    );
    logger.warn({ err: new Error(`bad key ${key}`) }, `failed for ${key}`);
    const out = lines.join('');
    expect(out).not.toMatch(/ak_live_[0-9a-f]/);
    expect(out).not.toContain('s3cret');
    expect(out).toContain('k-1'); // Idempotency-Key values are fine
    expect(out).toContain('[REDACTED]');
  });
});
