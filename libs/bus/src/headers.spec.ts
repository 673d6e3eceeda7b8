import { HEADER, headerGetter, readAttempt, readString, truncateForHeader, withoutBookkeeping } from './headers';

describe('headers', () => {
  it('reads the attempt, defaulting to 1', () => {
    expect(readAttempt(undefined)).toBe(1);
    expect(readAttempt({ [HEADER.attempt]: 3 })).toBe(3);
    expect(readAttempt({ [HEADER.attempt]: '2' })).toBe(2);
    expect(readAttempt({ [HEADER.attempt]: 'x' })).toBe(1);
    expect(readAttempt({ [HEADER.attempt]: -4 })).toBe(1);
  });

  it('reads strings from strings and buffers only', () => {
    expect(readString({ a: 'x', b: Buffer.from('y'), c: 5 }, 'a')).toBe('x');
    expect(readString({ a: 'x', b: Buffer.from('y'), c: 5 }, 'b')).toBe('y');
    expect(readString({ c: 5 }, 'c')).toBeUndefined();
    expect(headerGetter.get({ traceparent: Buffer.from('00-abc') }, 'traceparent')).toBe('00-abc');
  });

  it('drops bookkeeping and broker dead-letter history but keeps trace and correlation', () => {
    const kept = withoutBookkeeping({
      traceparent: 't',
      [HEADER.correlationId]: 'c',
      [HEADER.attempt]: 3,
      [HEADER.error]: 'boom',
      [HEADER.parkReason]: 'exhausted',
      'x-death': [{}],
      'x-first-death-queue': 'q',
    });
    expect(kept).toEqual({ traceparent: 't', [HEADER.correlationId]: 'c' });
  });

  it('truncates long error texts', () => {
    expect(truncateForHeader('abc', 10)).toBe('abc');
    expect(truncateForHeader('x'.repeat(20), 10)).toHaveLength(10);
  });
});
