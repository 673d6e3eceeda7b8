import { DecimalInput, NUMBER_BOUNDS } from './common';

const amount = DecimalInput({ maxDecimals: 2, min: 0, max: NUMBER_BOUNDS.maxAmount });
const messages = (v: unknown) => {
  const r = amount.safeParse(v);
  return r.success ? [] : r.error.issues.map((i) => i.message);
};

describe('DecimalInput', () => {
  it('keeps what the client wrote as a decimal string', () => {
    expect(amount.parse(12.5)).toBe('12.5');
    expect(amount.parse(' 999999999.99 ')).toBe('999999999.99');
  });

  it.each([
    [Infinity, 'must be a finite plain decimal number of at most 999999999.99'], // JSON.parse('1e400')
    [true, 'must be a finite plain decimal number of at most 999999999.99'],
    ['1e5', 'must be a plain decimal number of at most 999999999.99 (no exponent)'],
    ['1'.repeat(33), `at most ${NUMBER_BOUNDS.maxNumericLength} characters`],
    [1000000000, 'must be at most 999999999.99'],
    [-1, 'must be at least 0'],
    [0.001, 'at most 2 decimal places'],
  ])('refuses %p naming what it wants', (input, message) => {
    expect(messages(input)).toEqual([message]);
  });

  it('leaves a missing value to the common "required" message', () => {
    const r = amount.safeParse(undefined);
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].message).not.toMatch(/finite/);
  });
});
