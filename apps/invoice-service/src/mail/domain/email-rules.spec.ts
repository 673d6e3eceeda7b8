import { addressesOf, emailDay, mayUseFreeRecipients, normaliseNewlines, unknownRecipients, unsafeTextProblem } from './email-rules';

describe('e-mail rules', () => {
  it('refuses control characters in a subject, allows line feed and tab in a message', () => {
    expect(unsafeTextProblem('Invoice RE-2026-1', false)).toBeUndefined();
    expect(unsafeTextProblem('a\nb', false)).toMatch(/U\+000A at position 2/);
    expect(unsafeTextProblem('a\tb', false)).toMatch(/U\+0009/);
    expect(unsafeTextProblem('a\n\tb', true)).toBeUndefined();
    expect(unsafeTextProblem('a\rb', true)).toMatch(/U\+000D/);
    expect(unsafeTextProblem(normaliseNewlines('a\r\nb\rc'), true)).toBeUndefined();
    for (const c of ['\u0000', '\u001b', '\u007f', '\u0085', '\u202e', '\u2066', '\u2028', '\ufeff'])
      expect(unsafeTextProblem(`x${c}`, true)).toMatch(/control characters or bidirectional overrides/);
    expect(unsafeTextProblem('مرحبا \u200f Grüße 👋', false)).toBeUndefined();
  });

  it("collects a party's addresses (contact, EM electronic address, PEC) and compares them case-insensitively", () => {
    const buyer = {
      contact: { email: 'AP@Buyer.example' },
      electronicAddress: { scheme: 'EM', value: 'einvoice@buyer.example' },
      pec: 'buyer@pec.example',
    };
    expect(addressesOf(buyer)).toEqual(['ap@buyer.example', 'einvoice@buyer.example', 'buyer@pec.example']);
    expect(addressesOf({ electronicAddress: { scheme: '9930', value: 'DE123456789' } })).toEqual([]);
    expect(addressesOf(undefined)).toEqual([]);
    expect(unknownRecipients([' ap@BUYER.example', 'x@y.example'], new Set(addressesOf(buyer)))).toEqual(['x@y.example']);
  });

  it('reads EMAIL_FREE_RECIPIENTS as all, none or a list of companies', () => {
    expect(mayUseFreeRecipients(true, 'cmp_a')).toBe(true);
    expect(mayUseFreeRecipients(false, 'cmp_a')).toBe(false);
    expect(mayUseFreeRecipients(['cmp_a', 'cmp_b'], 'cmp_b')).toBe(true);
    expect(mayUseFreeRecipients(['cmp_a'], 'cmp_c')).toBe(false);
  });

  it('counts on the UTC day and answers the seconds until the next', () => {
    expect(emailDay(new Date('2026-11-27T23:59:30.200Z'))).toEqual({
      day: '2026-11-27',
      secondsLeft: 30,
      endsAt: new Date('2026-11-28T00:00:00.000Z'),
    });
    expect(emailDay(new Date('2026-12-31T00:00:00.000Z')).secondsLeft).toBe(86_400);
  });
});
